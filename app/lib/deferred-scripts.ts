// The page's JavaScript waits for a person: React Router's module script is served inert
// (see deferred-scripts.server.ts) and this inline script starts it on the first interaction.
// Until React runs, it also does the two things that interaction may need at once: the page's
// invoker-command buttons (the menu) in browsers without invoker commands, and F8 to the
// notification area. See docs/decisions/deferred-hydration.md.

/** Marks the inert copy of React Router's module script. */
export const DEFERRED_ATTRIBUTE = "data-deferred-module";
export const DEFERRED_TYPE = "text/x-deferred-module";
/** The notification area's id while the toasts' code has not loaded (components/toast/notifications-area.tsx). */
export const NOTIFICATIONS_ID = "notifications";
/** Set on window when F8 focused that area, so the toasts' own area takes the focus when it arrives. */
export const FOCUS_NOTIFICATIONS_FLAG = "__focusNotifications";

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

  // Spec §9: F8 focuses the notification area, even as the first key (the toasts load after React).
  const flag = "__focusNotifications";
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

export const deferredStartScript = `(${startOnFirstInteraction.toString()})();`;
