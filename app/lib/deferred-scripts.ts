// The page's JavaScript waits for a person: React Router's module script and the inline scripts
// that hand it the page's data are served inert (see deferred-scripts.server.ts), and this inline
// script starts them on the first interaction.
// Until React runs, it also does the two things that interaction may need at once: the page's
// invoker-command buttons (the menu) in browsers without invoker commands, and F8 to the
// notification area. See docs/decisions/deferred-hydration.md.

/** Marks the inert copy of React Router's module script. */
export const DEFERRED_ATTRIBUTE = "data-deferred-module";
export const DEFERRED_TYPE = "text/x-deferred-module";
/** Marks the inert copies of React Router's inline context and data scripts (classic scripts). */
export const DEFERRED_CLASSIC_ATTRIBUTE = "data-deferred-script";
export const DEFERRED_CLASSIC_TYPE = "text/x-deferred-script";
/**
 * Marks the site's own inline classic script that runs at load (the start script, root.tsx). Every other inline
 * classic script of a page (no type, no source, no attribute but a nonce) is React Router's, and waits: they are
 * told apart by what the site writes, never by a name of React Router's own.
 */
export const RUNS_AT_LOAD_ATTRIBUTE = "data-runs-at-load";
/** The notification area's id while the toasts' code has not loaded (components/toast/notifications-area.tsx). */
export const NOTIFICATIONS_ID = "notifications";
/** Set on window when F8 focused that area, so the toasts' own area takes the focus when it arrives. */
export const FOCUS_NOTIFICATIONS_FLAG = "__focusNotifications";

/** Runs in the browser as an inline script; self-contained, so it is serialised with toString() (`flag`: FOCUS_NOTIFICATIONS_FLAG). */
export function startOnFirstInteraction(flag: string): void {
  // A press, tap or key starts the scripts at once; a pointer or wheel moving, or the focus moving,
  // only after a pause (1 s): a visitor who rests the pointer on a link and clicks it is leaving,
  // and the next page, loaded ahead by the speculation rules, must not wait behind ours.
  const active = ["pointerdown", "touchstart", "keydown", "click"];
  const passive = ["pointermove", "focusin", "wheel"];
  const kinds = [...active, ...passive];
  const options = { capture: true, passive: true };
  const PAUSE_MS = 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let leaving = false;
  const revive = () => {
    // In document order: the context, the module (it runs later, once its imports load), the data.
    for (const inert of document.querySelectorAll<HTMLScriptElement>("script[data-deferred-script], script[data-deferred-module]")) {
      const script = document.createElement("script");
      if (inert.hasAttribute("data-deferred-module")) script.type = "module";
      // The same text as the inert copy, so the same hash in the CSP allows it.
      script.textContent = inert.textContent;
      inert.replaceWith(script);
    }
  };
  const start = () => {
    clearTimeout(timer);
    for (const kind of kinds) window.removeEventListener(kind, onEvent, options);
    // The data scripts come after this one: a press while the page is still arriving waits for them.
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", revive, { once: true });
    else revive();
  };
  /** A press on (or Enter in) a link to another page in this tab: the browser follows it, no script needed. */
  const follows = (event: Event) => {
    if (event.type === "keydown" && (event as KeyboardEvent).key !== "Enter") return false;
    const link = (event.target as Element | null)?.closest?.("a[href]");
    if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute("download")) return false;
    return !link.getAttribute("href")?.startsWith("#");
  };
  function onEvent(event: Event) {
    // The events tabs switch in place without React (events/tab-switch.ts): a press there changes nothing here.
    if ((event.target as Element | null)?.closest?.("a[data-tab]")) return;
    if (active.includes(event.type)) {
      leaving = follows(event);
      if (!leaving) return start();
      clearTimeout(timer);
      timer = undefined;
    } else if (!leaving && timer === undefined) {
      timer = setTimeout(start, PAUSE_MS);
    }
  }
  for (const kind of kinds) window.addEventListener(kind, onEvent, options);
  // Back from the back/forward cache after following a link: interactions start the scripts again.
  window.addEventListener("pageshow", () => {
    leaving = false;
  });
  // A page that still has to fetch what it shows (the events list, loading) starts at once.
  if (document.querySelector("[data-start-scripts]")) start();

  // Spec §9: F8 focuses the notification area, even as the first key (the toasts load after React).
  const state = window as unknown as Record<string, boolean>;
  window.addEventListener(
    "keydown",
    (event) => {
      const area = document.getElementById("notifications");
      if (event.key !== "F8" || !area) return;
      event.preventDefault();
      area.focus();
      state[flag] = true;
    },
    true,
  );
  window.addEventListener("focusin", (event) => {
    if ((event.target as Element | null)?.id !== "notifications") state[flag] = false;
  });

  // Browsers without invoker commands (Safari before 26.2, Firefox ESR 140): the page's own
  // command buttons work from the first tap, before React's fallback exists.
  if ("commandForElement" in HTMLButtonElement.prototype) return;
  document.addEventListener(
    "click",
    (event) => {
      const button = (event.target as Element | null)?.closest?.("button[commandfor]");
      const dialog = button ? document.getElementById(button.getAttribute("commandfor") ?? "") : null;
      if (!button || !(dialog instanceof HTMLDialogElement)) return;
      const command = button.getAttribute("command");
      if (command === "show-modal" && !dialog.open) dialog.showModal();
      else if ((command === "close" || command === "request-close") && dialog.open) dialog.close();
    },
    true,
  );
}

export const deferredStartScript = `(${startOnFirstInteraction.toString()})(${JSON.stringify(FOCUS_NOTIFICATIONS_FLAG)});`;
