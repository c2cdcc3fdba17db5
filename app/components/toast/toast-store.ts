import type { ReactNode } from "react";

// Spec §9: one toast visible at a time; removed 1000000 ms after it is dismissed.
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;

export type ToastData = {
  id: string;
  title?: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  /** Milliseconds on screen; the provider's default (5000) when absent. */
  duration?: number;
  open: boolean;
};

export type ToastAction =
  | { type: "ADD"; toast: ToastData }
  | { type: "UPDATE"; toast: Partial<ToastData> & { id: string } }
  | { type: "DISMISS"; id?: string }
  | { type: "REMOVE"; id?: string };

export type ToastState = { toasts: ToastData[] };

export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case "ADD":
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case "UPDATE":
      return { toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)) };
    case "DISMISS":
      return {
        toasts: state.toasts.map((t) => (action.id === undefined || t.id === action.id ? { ...t, open: false } : t)),
      };
    case "REMOVE":
      return { toasts: action.id === undefined ? [] : state.toasts.filter((t) => t.id !== action.id) };
  }
}

type Listener = (state: ToastState) => void;

/** A tiny store shared by every component that raises or shows toasts. */
export function createToastStore(schedule: typeof setTimeout = setTimeout) {
  let state: ToastState = { toasts: [] };
  let counter = 0;
  const listeners = new Set<Listener>();
  const removals = new Map<string, ReturnType<typeof setTimeout>>();

  const dispatch = (action: ToastAction) => {
    state = toastReducer(state, action);
    if (action.type === "DISMISS") {
      for (const t of state.toasts) {
        if (!t.open && !removals.has(t.id)) {
          removals.set(
            t.id,
            schedule(() => {
              removals.delete(t.id);
              dispatch({ type: "REMOVE", id: t.id });
            }, TOAST_REMOVE_DELAY),
          );
        }
      }
    }
    for (const listener of listeners) listener(state);
  };

  return {
    getState: () => state,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    toast(input: Omit<ToastData, "id" | "open">) {
      const id = String(++counter);
      dispatch({ type: "ADD", toast: { ...input, id, open: true } });
      return {
        id,
        update: (patch: Partial<Omit<ToastData, "id">>) => dispatch({ type: "UPDATE", toast: { ...patch, id } }),
        dismiss: () => dispatch({ type: "DISMISS", id }),
      };
    },
    dismiss: (id?: string) => dispatch(id === undefined ? { type: "DISMISS" } : { type: "DISMISS", id }),
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;

export const toastStore = createToastStore();
export const toast = toastStore.toast;
