import * as ToastPrimitive from "@radix-ui/react-toast";
import { X } from "lucide-react";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { FOCUS_NOTIFICATIONS_FLAG } from "~/lib/deferred-scripts";
import { toastStore } from "./toast-store";

/** Radix toast provider and viewport, configured with the spec §9 constants. */
export default function Toaster() {
  const { toasts } = useSyncExternalStore(toastStore.subscribe, toastStore.getState, toastStore.getState);
  const viewport = useRef<HTMLOListElement>(null);
  // F8 before this code arrived focused the placeholder area, which this one replaces: keep the focus here.
  useEffect(() => {
    const state = window as unknown as Record<string, boolean | undefined>;
    if (!state[FOCUS_NOTIFICATIONS_FLAG]) return;
    state[FOCUS_NOTIFICATIONS_FLAG] = false;
    if (document.activeElement === null || document.activeElement === document.body) viewport.current?.focus();
  }, []);
  return (
    <ToastPrimitive.Provider duration={5000} swipeDirection="right" swipeThreshold={50} label="Notification">
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          duration={t.duration}
          onOpenChange={(open) => {
            if (!open) toastStore.dismiss(t.id);
          }}
          className="toast grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 rounded-lg border border-ink/10 bg-white p-4 pr-3 shadow-lg"
        >
          {t.title ? <ToastPrimitive.Title className="font-semibold text-ink">{t.title}</ToastPrimitive.Title> : null}
          {t.description ? (
            <ToastPrimitive.Description className="col-start-1 text-sm text-ink-soft">{t.description}</ToastPrimitive.Description>
          ) : null}
          {t.action}
          <ToastPrimitive.Close
            aria-label="Dismiss notification"
            className="col-start-2 row-start-1 rounded p-1 text-ink-soft hover:bg-sand focus-visible:outline-2"
          >
            <X aria-hidden="true" className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        ref={viewport}
        hotkey={["F8"]}
        className="fixed right-0 bottom-0 z-50 m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none"
      />
    </ToastPrimitive.Provider>
  );
}
