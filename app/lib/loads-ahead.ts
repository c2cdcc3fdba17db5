// Whether the browser can load our pages ahead of a click: it understands the speculation rules
// every page carries (app/lib/speculation-rules.ts). Where it does not (Firefox, Safari before 26.2),
// a click waits for the network whatever we do, so once React runs, links to our pages are React
// Router's in-app navigations with its intent prefetch (docs/decisions/instant-navigation.md).

/** Runs in the browser. */
export function browserLoadsAhead(): boolean {
  return typeof HTMLScriptElement.supports === "function" && HTMLScriptElement.supports("speculationrules");
}
