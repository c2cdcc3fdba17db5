import { ExternalLink, Menu, X } from "lucide-react";
import { useEffect, useRef, type KeyboardEvent, type MouseEvent } from "react";
import { useLocation } from "react-router";
import { PageLink, PageNavLink } from "./page-link";
import { newTab } from "~/lib/external";
import { buttonStyles } from "./button-styles";
import { navItems, navLinkClass } from "./navigation";

const MENU_ID = "site-menu";

/**
 * The small-screen drawer: a native modal <dialog> sliding from the left. The browser opens it
 * from the button (invoker command) even before React runs, makes the page behind inert, closes
 * it on Esc or a click outside (closedby="any") and returns focus to the button. React adds what
 * the platform lacks: closing on in-app navigation, Tab wrapping inside, and fallbacks for
 * browsers without invoker commands or closedby.
 *
 * The button has no aria-expanded: the HTML standard forbids it on a button with a `command`
 * (the W3C checker reports it), and while the modal drawer is open the button is inert anyway.
 */
export function MobileMenu({ loginUrl }: { loginUrl: string }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { pathname } = useLocation();
  const close = () => dialogRef.current?.close();

  // Any navigation (a link here, back/forward) closes it. Not on mount: a visitor may have opened
  // it before React arrived.
  const shownOn = useRef(pathname);
  useEffect(() => {
    if (shownOn.current === pathname) return;
    shownOn.current = pathname;
    dialogRef.current?.close();
  }, [pathname]);

  const openWithoutInvokers = () => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open && !supportsInvokerCommands()) dialog.showModal();
  };
  // The panel fills the dialog box, so a click whose target is the dialog itself hit the backdrop.
  const closeOnBackdrop = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget) close();
  };

  return (
    <>
      <button
        type="button"
        command="show-modal"
        commandfor={MENU_ID}
        onClick={openWithoutInvokers}
        aria-haspopup="dialog"
        aria-controls={MENU_ID}
        data-needs-js
        className="-ml-2 grid size-11 place-items-center rounded-md text-ink hover:bg-sand focus-visible:outline-2 focus-visible:outline-brass-dark lg:hidden"
        aria-label="Open menu"
      >
        <Menu aria-hidden="true" className="size-6" />
      </button>
      <dialog
        ref={dialogRef}
        id={MENU_ID}
        aria-labelledby={`${MENU_ID}-title`}
        closedby="any"
        onClick={closeOnBackdrop}
        onKeyDown={wrapTab}
        className="drawer fixed inset-y-0 right-auto left-0 m-0 h-dvh max-h-none w-[min(20rem,85vw)] max-w-none bg-paper p-0 text-ink shadow-2xl outline-none"
      >
        <div className="flex h-full flex-col gap-6 p-6">
          <div className="flex items-center justify-between">
            {/* The dialog's name, not a heading: the drawer comes before <main> in every page,
                and its heading would precede the page's h1 (pa11y G141). */}
            <p id={`${MENU_ID}-title`} className="font-serif text-xl font-semibold text-ink">
              Menu
            </p>
            <button
              type="button"
              command="close"
              commandfor={MENU_ID}
              onClick={() => {
                if (!supportsInvokerCommands()) close();
              }}
              className="-mr-2 grid size-11 place-items-center rounded-md text-ink hover:bg-sand focus-visible:outline-2 focus-visible:outline-brass-dark"
              aria-label="Close menu"
            >
              <X aria-hidden="true" className="size-6" />
            </button>
          </div>
          <nav aria-label="Main">
            <ul className="flex flex-col gap-1">
              {navItems.map((item) => (
                <li key={item.to}>
                  <PageNavLink to={item.to} end onClick={close} className={(s) => `${navLinkClass(s)} block py-2.5 text-lg`}>
                    {item.label}
                  </PageNavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-auto flex flex-col gap-3">
            <PageLink to="/apply" onClick={close} className={buttonStyles.primaryLarge}>
              Apply
            </PageLink>
            <a href={loginUrl} {...newTab} onClick={close} className={buttonStyles.outlineLarge}>
              Login
              <ExternalLink aria-hidden="true" className="size-4" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </div>
        </div>
      </dialog>
    </>
  );
}

function supportsInvokerCommands(): boolean {
  return "commandForElement" in HTMLButtonElement.prototype;
}

/** A modal dialog lets Tab reach the browser's own UI; the menu keeps it cycling inside instead. */
function wrapTab(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== "Tab") return;
  const focusable = event.currentTarget.querySelectorAll<HTMLElement>("a[href], button:not([disabled])");
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
