import { NOTIFICATIONS_ID } from "~/lib/deferred-scripts";

/**
 * The notification area as the server sends it and until the toasts' code has loaded: empty,
 * labelled like Radix's own, and focusable, so F8 reaches it from the first key press (the
 * first-interaction starter focuses it; the toaster then hands the focus to its own area).
 */
export function NotificationsArea() {
  return (
    <section
      id={NOTIFICATIONS_ID}
      aria-label="Notifications (F8)"
      tabIndex={-1}
      className="pointer-events-none fixed right-0 bottom-0 z-50 m-0 w-full max-w-sm p-4 outline-none"
    />
  );
}
