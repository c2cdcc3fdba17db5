// A click on an events tab shows the other list in the next frame, before React runs and after: both
// tabs' first views are in the page (routes/events.tsx), the hidden one laid out ahead once the page is idle
// (app.css), so a switch is a few attributes. Before React Router has made its router, this also moves the address
// (history.pushState, once that frame is painted) and follows back and forward; once it has, its own
// navigation does (the route's shouldRevalidate keeps it local), and React's render then sets the same
// attributes.

/** Runs in the browser from the start script (root.tsx), on every page: it acts only where the tabs are. Self-contained, so it is serialised with toString(). */
export function switchTabsInPlace(): void {
  const show = (tab: string) => {
    for (const part of document.querySelectorAll<HTMLElement>("[data-tab-panel]")) part.hidden = part.dataset.tabPanel !== tab;
    for (const link of document.querySelectorAll("a[data-tab]")) {
      if ((link as HTMLElement).dataset.tab === tab) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  };
  const routerMade = () => "__reactRouterDataRouter" in window;
  document.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest?.("a[data-tab]");
    if (!(link instanceof HTMLAnchorElement) || !document.querySelector("div[data-tab-panel]")) return; // no lists: loading or failed
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (routerMade()) return show(link.dataset.tab ?? "");
    event.preventDefault();
    show(link.dataset.tab ?? "");
    // The address follows once the switched frame is painted.
    const href = link.href;
    requestAnimationFrame(() => setTimeout(() => href !== location.href && history.pushState(null, "", href)));
  });
  window.addEventListener("popstate", () => {
    if (!routerMade()) show(new URLSearchParams(location.search).get("tab") === "past" ? "past" : "upcoming");
  });
  // The hidden list is laid out once the page is idle (app.css), so a switch only reveals it and the page's first
  // frames do not wait for it (Safari has no idle callback: a moment after the page's own tasks there).
  const panels = document.querySelector("div[data-tab-panel]")?.parentElement;
  const ready = () => panels?.setAttribute("data-tabs-ready", "");
  if (panels && "requestIdleCallback" in window) requestIdleCallback(ready);
  else if (panels) setTimeout(ready, 100);
}

export const tabSwitchScript = `(${switchTabsInPlace.toString()})();`;
