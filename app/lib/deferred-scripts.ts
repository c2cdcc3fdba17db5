// The page's JavaScript waits for a person: React Router's module script is served inert
// (see deferred-scripts.server.ts) and this inline script starts it on the first interaction.
// See docs/decisions/deferred-hydration.md.

/** Marks the inert copy of React Router's module script. */
export const DEFERRED_ATTRIBUTE = "data-deferred-module";
export const DEFERRED_TYPE = "text/x-deferred-module";

/** Runs in the browser as an inline script; self-contained, so it is serialised with toString(). */
export function startOnFirstInteraction(): void {
  const kinds = ["pointerdown", "pointermove", "touchstart", "keydown", "focusin", "wheel", "click"];
  const options = { capture: true, passive: true };
  const start = () => {
    for (const kind of kinds) window.removeEventListener(kind, start, options);
    for (const inert of document.querySelectorAll<HTMLScriptElement>("script[data-deferred-module]")) {
      const script = document.createElement("script");
      script.type = "module";
      // The same text as the inert copy, so the same hash in the CSP allows it.
      script.textContent = inert.textContent;
      inert.replaceWith(script);
    }
  };
  for (const kind of kinds) window.addEventListener(kind, start, options);
  // A page that still has to fetch what it shows (the events list, loading) starts at once.
  if (document.querySelector("[data-start-scripts]")) start();
}

export const deferredStartScript = `(${startOnFirstInteraction.toString()})();`;
