import { cx } from "~/lib/cx";

// The spec's fixed navigation (§2); the pages behind it are code, so the list lives with the code.
export const navItems = [
  { to: "/", label: "Homepage" },
  { to: "/about", label: "About Us" },
  { to: "/contact", label: "Contact Us" },
  { to: "/events", label: "Member Events" },
  { to: "/portal", label: "Member Portal" },
] as const;

export const footerLinks = [
  { to: "/about", label: "About Us" },
  { to: "/contact", label: "Contact" },
  { to: "/events", label: "Events" },
  { to: "/apply", label: "Apply" },
] as const;

export const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cx(
    "rounded-md px-1 py-1 whitespace-nowrap text-ink underline-offset-8 decoration-2 decoration-brass hover:underline focus-visible:outline-2 focus-visible:outline-brass-dark",
    isActive ? "font-bold" : "font-normal",
  );
