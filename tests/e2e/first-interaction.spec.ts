import type { Page } from "@playwright/test";
import { DESKTOP, PHONE, expect, holdReact, isHydrated, test } from "./fixtures";

// What the first interaction must already do, before React runs (app/lib/deferred-scripts.ts).

test.describe("a browser without invoker commands (Safari before 26.2, Firefox ESR 140)", () => {
  test.use({ viewport: PHONE });

  test("the first tap on the menu opens the drawer, and its close button closes it, before React", async ({ page }) => {
    await page.addInitScript(() => {
      // Hide the feature as such browsers lack it: no commandForElement, and no built-in command
      // behaviour (a click's default action is where Chromium runs the command).
      delete (HTMLButtonElement.prototype as unknown as Record<string, unknown>).commandForElement;
      window.addEventListener(
        "click",
        (event) => {
          if ((event.target as Element | null)?.closest("button[commandfor]")) event.preventDefault();
        },
        true,
      );
    });
    const { held } = await holdReact(page);
    await page.goto("/");
    expect(await page.evaluate(() => "commandForElement" in HTMLButtonElement.prototype)).toBe(false);
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await expect(drawer).toBeVisible();
    await drawer.getByRole("button", { name: "Close menu" }).click();
    await expect(drawer).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(drawer).toBeVisible();
    await expect.poll(held).toBeGreaterThan(0);
    expect(await page.evaluate(isHydrated)).toBe(false);
  });
});

test.describe("F8 (spec §9)", () => {
  test.use({ viewport: DESKTOP });

  const focusedLabel = (page: Page) =>
    page.evaluate(() => document.activeElement?.closest("[aria-label^='Notifications']")?.getAttribute("aria-label") ?? null);

  test("as the very first key press, focuses the notification area, which keeps the focus once the toasts load", async ({ page }) => {
    // React is held until the focus before it has been checked: from the loopback it could arrive first.
    const react = await holdReact(page);
    await page.goto("/about");
    expect(await page.evaluate(isHydrated)).toBe(false);
    await page.keyboard.press("F8");
    expect(await focusedLabel(page)).toBe("Notifications (F8)");
    // The key started the scripts; React and then the toasts' own area arrive.
    await expect.poll(react.held).toBeGreaterThan(0);
    react.release();
    await page.waitForFunction(isHydrated);
    await page.waitForFunction(() => document.getElementById("notifications") === null);
    await expect.poll(() => focusedLabel(page)).toBe("Notifications (F8)");
  });

  test("before React arrives at all, still focuses the area", async ({ page }) => {
    const { held } = await holdReact(page);
    await page.goto("/");
    await page.keyboard.press("F8");
    expect(await focusedLabel(page)).toBe("Notifications (F8)");
    await expect.poll(held).toBeGreaterThan(0);
  });

  test("after hydration, focuses the toasts' own area", async ({ page }) => {
    await page.goto("/contact");
    await page.mouse.move(2, 2);
    await page.waitForFunction(isHydrated);
    await page.waitForFunction(() => document.getElementById("notifications") === null);
    // Radix listens for F8 from an effect, which runs a moment after its area has replaced ours: a key
    // pressed in between is nobody's. So the key is pressed until the area answers (each press focuses it).
    await expect
      .poll(async () => {
        await page.keyboard.press("F8");
        return focusedLabel(page);
      })
      .toBe("Notifications (F8)");
  });
});
