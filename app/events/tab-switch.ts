// A click on an events tab shows the other list in the next frame, before React runs and after: both
// tabs' first views are in the page (routes/events.tsx), the hidden one laid out ahead as the visitor heads
// for the tabs (app.css), so a switch is a few attributes. Before React runs, this also moves the address
// (history.pushState, once that frame is painted) and follows back and forward; once it does (the site's own
// flag, app/lib/react-started.ts), React Router's navigation does (the route's shouldRevalidate keeps it
// local), and React's render then sets the same attributes.
import { REACT_STARTED_FLAG } from "~/lib/react-started";

/**
 * Runs in the browser from the start script (root.tsx), on every page: it acts only where the tabs are. Self-contained,
 * so it is serialised with toString(); `reactStarted` is the name of the window's flag that React runs.
 */
export function switchTabsInPlace(reactStarted: string): void {
  // The hidden list is laid out ahead when a visitor heads for the tabs (the pointer over one, or the focus on one:
  // data-ahead, app.css), so that a click only reveals it. Not before: laid out at load it costs the page's first
  // frames, a page loaded ahead (prerendered) and the page's hiding when the visitor leaves. The list a switch hides
  // leaves the layout at once (cheaper than keeping it there), until the visitor heads for the tabs again.
  const layOutAhead = (event: Event) => {
    if (!(event.target as Element | null)?.closest?.("a[data-tab]")) return;
    for (const part of document.querySelectorAll("div[data-tab-panel][hidden]:not([data-ahead])")) part.setAttribute("data-ahead", "");
  };
  document.addEventListener("pointerover", layOutAhead, { passive: true });
  document.addEventListener("focusin", layOutAhead);
  const show = (tab: string) => {
    for (const part of document.querySelectorAll<HTMLElement>("[data-tab-panel]")) {
      part.hidden = part.dataset.tabPanel !== tab;
      if (part.hidden) part.removeAttribute("data-ahead");
    }
    for (const link of document.querySelectorAll("a[data-tab]")) {
      if ((link as HTMLElement).dataset.tab === tab) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  };
  const reactRuns = () => (window as unknown as Record<string, unknown>)[reactStarted] === true;
  document.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest?.("a[data-tab]");
    if (!(link instanceof HTMLAnchorElement) || !document.querySelector("div[data-tab-panel]")) return; // no lists: loading or failed
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (reactRuns()) return show(link.dataset.tab ?? "");
    event.preventDefault();
    show(link.dataset.tab ?? "");
    // The address follows once the switched frame is painted.
    const href = link.href;
    requestAnimationFrame(() => setTimeout(() => href !== location.href && history.pushState(null, "", href)));
  });
  window.addEventListener("popstate", () => {
    if (!reactRuns()) show(new URLSearchParams(location.search).get("tab") === "past" ? "past" : "upcoming");
  });
}

export const tabSwitchScript = `(${switchTabsInPlace.toString()})(${JSON.stringify(REACT_STARTED_FLAG)});`;
