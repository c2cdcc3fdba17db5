// Whether the browser can load our pages ahead of a click: it understands the speculation rules
// every page carries (app/lib/speculation-rules.ts). Where it does not (Firefox, Safari before 26.2),
// a click waits for the network whatever we do, so two things change
// (docs/decisions/instant-navigation.md): once React runs, links to our pages are React Router's
// in-app navigations with its intent prefetch, as before speculation rules; and no view transition
// is drawn, as its snapshot and first frame would only add to the wait.

/** Runs in the browser; self-contained, so it is also serialised into the page's start script. */
export function browserLoadsAhead(): boolean {
  return typeof HTMLScriptElement.supports === "function" && HTMLScriptElement.supports("speculationrules");
}

/** Runs in the browser, from the start script: the page being left skips its view transition unless the next page could be loaded ahead. */
export function fadeOnlyWhenLoadedAhead(loadsAhead: () => boolean): void {
  window.addEventListener("pageswap", (event) => {
    if (!loadsAhead()) event.viewTransition?.skipTransition();
  });
}

export const fadeGuardScript = `(${fadeOnlyWhenLoadedAhead.toString()})(${browserLoadsAhead.toString()});`;
