import type { Page } from "@playwright/test";
import { DESKTOP, PHONE, expect, test, waitForHydration } from "./fixtures";
import { showToast } from "./support/toast";

// prefers-reduced-motion: the drawer and the toasts must not slide or fade for people who ask
// for less motion, and must for everyone else (so this test can tell the two apart).

type Motion = { kind: "animation" | "transition"; name: string; durationMs: number; part: "drawer" | "toast" | "other"; target: string };

/** Records every CSS animation and transition that starts in the page, with its duration. */
async function recordMotion(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const motions: Motion[] = [];
    (window as unknown as { __motions: Motion[] }).__motions = motions;
    // "0.22s, 10ms" -> 220 (the longest of a list).
    const longest = (list: string) =>
      Math.max(0, ...list.split(",").map((v) => (v.trim().endsWith("ms") ? parseFloat(v) : parseFloat(v) * 1000)));
    const part = (el: Element): Motion["part"] =>
      el.closest('[role="dialog"], dialog')
        ? "drawer"
        : el.closest('[role="region"][aria-label^="Notifications"], [role="status"], [role="alert"]')
          ? "toast"
          : "other";
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${[...el.classList].slice(0, 3).join(".")}`;
    const record = (kind: Motion["kind"], e: AnimationEvent | TransitionEvent, name: string) => {
      const el = e.target as Element;
      const style = getComputedStyle(el, e.pseudoElement || null);
      const duration = kind === "animation" ? style.animationDuration : style.transitionDuration;
      motions.push({ kind, name, durationMs: longest(duration), part: part(el), target: describe(el) + e.pseudoElement });
    };
    document.addEventListener("animationstart", (e) => record("animation", e, e.animationName), true);
    document.addEventListener("transitionrun", (e) => record("transition", e, e.propertyName), true);
  });
}

const motions = (page: Page) => page.evaluate(() => (window as unknown as { __motions: Motion[] }).__motions);

/** Animations still running with a real duration (more than a frame's worth of motion). */
const runningAnimations = (page: Page) =>
  page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.playState === "running" && Number(a.effect?.getComputedTiming().duration ?? 0) > 1)
      .map((a) => (a as CSSAnimation).animationName ?? "transition"),
  );

async function openAndCloseDrawer(page: Page): Promise<string[]> {
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Open menu" }).click();
  const drawer = page.getByRole("dialog", { name: "Menu" });
  await expect(drawer).toBeVisible();
  const runningRightAfterOpening = await runningAnimations(page);
  await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  return runningRightAfterOpening;
}

/** Waits two frames: animationstart and transitionrun are dispatched on the frame after a change. */
const nextFrames = (page: Page) =>
  page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

const show = (list: Motion[]) => list.map((m) => `${m.kind} ${m.name} ${m.durationMs}ms on ${m.target} (${m.part})`).join("\n");

// One page for each preference: the drawer at a phone's width, then the toast at a laptop's.
test.describe("with prefers-reduced-motion: reduce", () => {
  test.use({ reducedMotion: "reduce", viewport: PHONE });

  test("the drawer appears and goes, and a toast appears, without sliding or fading", async ({ page }) => {
    await recordMotion(page);
    await test.step("the drawer (375 px)", async () => {
      const running = await openAndCloseDrawer(page);
      expect(running, "animations running just after the drawer opened").toEqual([]);
      const moved = (await motions(page)).filter((m) => m.durationMs > 1);
      expect(moved, show(moved)).toEqual([]);
    });
    await test.step("a toast (1280 px)", async () => {
      await page.setViewportSize(DESKTOP);
      await showToast(page);
      expect(await runningAnimations(page)).toEqual([]);
      await nextFrames(page);
      const moved = (await motions(page)).filter((m) => m.durationMs > 1);
      expect(moved, show(moved)).toEqual([]);
    });
  });
});

test.describe("with prefers-reduced-motion: no-preference", () => {
  test.use({ reducedMotion: "no-preference", viewport: PHONE });

  test("the drawer slides in, and so does a toast", async ({ page }) => {
    await recordMotion(page);
    await test.step("the drawer (375 px)", async () => {
      await openAndCloseDrawer(page);
      const drawer = (await motions(page)).filter((m) => m.part === "drawer" && m.durationMs >= 100);
      expect(drawer.length, show(await motions(page))).toBeGreaterThanOrEqual(1);
    });
    await test.step("a toast (1280 px)", async () => {
      await page.setViewportSize(DESKTOP);
      await showToast(page);
      const toastMotions = async () => (await motions(page)).filter((m) => m.part === "toast" && m.durationMs >= 100).length;
      await expect.poll(toastMotions, { message: "a toast animation of 100 ms or more" }).toBeGreaterThanOrEqual(1);
    });
  });
});
