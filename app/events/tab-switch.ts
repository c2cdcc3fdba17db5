// A click on an events tab switches the list in place, before React runs too: both tabs' first
// views are in the page (routes/events.tsx), so a switch is a few attributes and the address, shown
// in the next frame. Once React Router has made its router it owns the address, and its own
// navigation does the same switch (the route's shouldRevalidate); a page showing every event of a
// tab (`?all=1`) leaves the switch to the server.

/** Runs in the browser from the start script (root.tsx), on every page: it acts only where the tabs are. Self-contained, so it is serialised with toString(). */
export function switchTabsInPlace(): void {
  const show = (tab: string) => {
    for (const part of document.querySelectorAll<HTMLElement>("[data-tab-panel]")) part.hidden = part.dataset.tabPanel !== tab;
    for (const link of document.querySelectorAll("a[data-tab]")) {
      if ((link as HTMLElement).dataset.tab === tab) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  };
  const inPlace = () => !("__reactRouterDataRouter" in window) && !new URLSearchParams(location.search).has("all");
  document.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest?.("a[data-tab]");
    if (!(link instanceof HTMLAnchorElement) || !inPlace() || !document.querySelector("[data-tab-panel]")) return;
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (link.href !== location.href) history.pushState(null, "", link.href);
    show(link.dataset.tab ?? "");
  });
  window.addEventListener("popstate", () => {
    if (inPlace()) show(new URLSearchParams(location.search).get("tab") === "past" ? "past" : "upcoming");
  });
}

export const tabSwitchScript = `(${switchTabsInPlace.toString()})();`;
