import { Link, NavLink, type LinkProps, type NavLinkProps } from "react-router";

// Links between our pages are document navigations, so the browser shows the page its speculation
// rules loaded ahead (React Router's in-app navigation cannot use a prerendered page):
// docs/decisions/instant-navigation.md. The events tabs and "Show all" stay in-app links.

/** A link to another of our pages. */
export function PageLink(props: Omit<LinkProps, "reloadDocument">) {
  return <Link {...props} reloadDocument />;
}

/** A navigation link to another of our pages, marked while that page is the current one. */
export function PageNavLink(props: Omit<NavLinkProps, "reloadDocument">) {
  return <NavLink {...props} reloadDocument />;
}
