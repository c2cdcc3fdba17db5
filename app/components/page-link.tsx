import { useSyncExternalStore } from "react";
import { Link, NavLink, type LinkProps, type NavLinkProps } from "react-router";
import { browserLoadsAhead } from "~/lib/loads-ahead";

// Links between our pages are document navigations where the browser can load the next page ahead
// (its speculation rules): it shows the page it prerendered, which React Router's in-app navigation
// cannot use. Where it cannot, they are in-app navigations with React Router's intent prefetch once
// React runs. The markup is the same either way. See docs/decisions/instant-navigation.md. The
// events tabs and "Show all" stay in-app links.

type LinkKind = { reloadDocument: boolean; prefetch: "none" | "intent" };

const noSubscription = () => () => {};
const ahead: LinkKind = { reloadDocument: true, prefetch: "none" };
const inApp: LinkKind = { reloadDocument: false, prefetch: "intent" };

/** Document links in the server's HTML (and until React runs); in-app ones where nothing is loaded ahead. */
function useLinkKind(): LinkKind {
  return useSyncExternalStore(
    noSubscription,
    () => (browserLoadsAhead() ? ahead : inApp),
    () => ahead,
  );
}

/** A link to another of our pages. */
export function PageLink(props: Omit<LinkProps, "reloadDocument" | "prefetch">) {
  return <Link {...props} {...useLinkKind()} />;
}

/** A navigation link to another of our pages, marked while that page is the current one. */
export function PageNavLink(props: Omit<NavLinkProps, "reloadDocument" | "prefetch">) {
  return <NavLink {...props} {...useLinkKind()} />;
}
