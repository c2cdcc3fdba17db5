import { describe, expect, it, vi } from "vitest";
import { createToastStore, TOAST_LIMIT, TOAST_REMOVE_DELAY, toastReducer } from "./toast-store";

describe("toast store", () => {
  it("shows at most one toast: a new one replaces the old", () => {
    const store = createToastStore();
    store.toast({ title: "first" });
    store.toast({ title: "second" });
    expect(TOAST_LIMIT).toBe(1);
    expect(store.getState().toasts.map((t) => t.title)).toEqual(["second"]);
  });

  it("updates a toast in place", () => {
    const store = createToastStore();
    const t = store.toast({ title: "Saving" });
    t.update({ title: "Saved" });
    expect(store.getState().toasts[0]).toMatchObject({ id: t.id, title: "Saved", open: true });
  });

  it("dismisses, then removes after 1000000 ms", () => {
    vi.useFakeTimers();
    try {
      const store = createToastStore();
      const listener = vi.fn();
      store.subscribe(listener);
      const t = store.toast({ title: "Hello" });
      t.dismiss();
      expect(store.getState().toasts[0]?.open).toBe(false);
      vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1);
      expect(store.getState().toasts).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(store.getState().toasts).toHaveLength(0);
      expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
      expect(listener).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("dismissing without an id closes every toast", () => {
    const state = toastReducer(
      {
        toasts: [
          { id: "1", open: true },
          { id: "2", open: true },
        ],
      },
      { type: "DISMISS" },
    );
    expect(state.toasts.every((t) => !t.open)).toBe(true);
  });

  it("removing without an id clears the list", () => {
    expect(toastReducer({ toasts: [{ id: "1", open: false }] }, { type: "REMOVE" }).toasts).toEqual([]);
  });
});
