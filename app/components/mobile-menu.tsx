import * as Dialog from "@radix-ui/react-dialog";
import { ExternalLink, Menu, X } from "lucide-react";
import { useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { newTab } from "~/lib/external";
import { buttonStyles } from "./button-styles";
import { navItems, navLinkClass } from "./navigation";
import { usePublicConfig } from "./use-public-config";

/** The small-screen drawer: slides from the left, traps focus, closes on Esc, overlay or any choice. */
export function MobileMenu() {
  const { pathname } = useLocation();
  // Open only on the page where it was opened, so back/forward navigation also closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (next: boolean) => setOpenOn(next ? pathname : null);
  const close = () => setOpen(false);
  const { loginUrl } = usePublicConfig();

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        data-needs-js
        className="-ml-2 grid size-11 place-items-center rounded-md text-ink hover:bg-sand focus-visible:outline-2 focus-visible:outline-brass-dark md:hidden"
        aria-label="Open menu"
      >
        <Menu aria-hidden="true" className="size-6" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="drawer-overlay fixed inset-0 z-50 bg-ink/40" />
        <Dialog.Content
          className="drawer fixed inset-y-0 left-0 z-50 flex w-[min(20rem,85vw)] flex-col gap-6 bg-paper p-6 shadow-2xl outline-none"
          aria-describedby={undefined}
        >
          <div className="flex items-center justify-between">
            <Dialog.Title className="font-serif text-xl font-semibold text-ink">Menu</Dialog.Title>
            <Dialog.Close
              className="-mr-2 grid size-11 place-items-center rounded-md text-ink hover:bg-sand focus-visible:outline-2 focus-visible:outline-brass-dark"
              aria-label="Close menu"
            >
              <X aria-hidden="true" className="size-6" />
            </Dialog.Close>
          </div>
          <nav aria-label="Main">
            <ul className="flex flex-col gap-1">
              {navItems.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end onClick={close} className={(s) => `${navLinkClass(s)} block py-2.5 text-lg`}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-auto flex flex-col gap-3">
            <Link to="/apply" onClick={close} className={buttonStyles.primaryLarge}>
              Apply
            </Link>
            <a href={loginUrl} {...newTab} onClick={close} className={buttonStyles.outlineLarge}>
              Login
              <ExternalLink aria-hidden="true" className="size-4" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
