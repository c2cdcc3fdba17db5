import type { Page, Request } from "@playwright/test";
import { PHONE, expect, holdReact, isHydrated, test, waitForHydration, waitForQuietNetwork } from "./fixtures";
import { FULL_BROWSER } from "./support/full-browser";
import { pageIdle, pageSettled } from "./support/settled";

// The full browser: after an idle callback (pageIdle) the headless shell at times paints no further frame, where
// Chromium does (scripts/chromium.js).
test.use({ launchOptions: FULL_BROWSER });

// Issue 4 budget: JavaScript transferred on `/` under 90 KB compressed.
const HOME_JS_BUDGET = 90 * 1024;

/** Records every script request of the page with the bytes that went over the wire. */
function recordScripts(page: Page): Request[] {
  const scripts: Request[] = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() === "script") scripts.push(request);
  });
  return scripts;
}

async function transferred(requests: Request[]): Promise<number> {
  const sizes = await Promise.all(requests.map((r) => r.sizes()));
  return sizes.reduce((sum, s) => sum + s.responseBodySize, 0);
}

test.describe("hydration waits for a visitor", () => {
  test("a page that is only read loads no JavaScript file; the first interaction loads them and hydrates", async ({ page }) => {
    const scripts = recordScripts(page);
    await page.goto("/");
    await waitForQuietNetwork(page);
    // Idle once: nothing the page put off until idle starts its scripts either.
    await pageIdle(page);
    expect(await page.evaluate(isHydrated)).toBe(false);
    const beforeInteraction = [...scripts];
    const bytes = await transferred(beforeInteraction);
    console.log(`[measure] / before interaction: ${beforeInteraction.length} scripts, ${(bytes / 1024).toFixed(1)} KB transferred`);
    expect(bytes).toBeLessThan(HOME_JS_BUDGET);
    // Not even React Router's runtime: the page's only scripts are inline.
    expect(beforeInteraction.map((r) => r.url())).toEqual([]);

    await waitForHydration(page);
    const afterInteraction = scripts.filter((r) => !beforeInteraction.includes(r));
    // React, React DOM and the route modules arrive only now.
    expect(afterInteraction.length).toBeGreaterThan(0);
    console.log(`[measure] / on first interaction: +${((await transferred(afterInteraction)) / 1024).toFixed(1)} KB`);
  });

  test("the scripts are served compressed (files under 1 KB aside), so the budget counts compressed bytes", async ({ request }) => {
    const html = await (await request.get("/")).text();
    const scripts = [...new Set(html.match(/\/assets\/[\w.-]+\.js/g) ?? [])];
    expect(scripts.length).toBeGreaterThan(3);
    let compressed = 0;
    for (const script of scripts) {
      const response = await request.get(script, { headers: { "accept-encoding": "br, gzip" } });
      const encoding = response.headers()["content-encoding"];
      if (encoding) compressed++;
      else expect((await response.body()).length, `${script} is sent uncompressed`).toBeLessThan(1024);
    }
    expect(compressed).toBeGreaterThan(0);
  });

  test.describe("at phone width", () => {
    test.use({ viewport: PHONE });

    test("a drawer opened by the first tap stays open while React hydrates", async ({ page }) => {
      await page.goto("/");
      expect(await page.evaluate(isHydrated)).toBe(false);
      // The tap itself is the first interaction: it opens the drawer and starts hydration.
      await page.getByRole("button", { name: "Open menu" }).click();
      const drawer = page.getByRole("dialog", { name: "Menu" });
      await expect(drawer).toBeVisible();
      await page.waitForFunction(isHydrated);
      await pageSettled(page);
      await expect(drawer).toBeVisible();
      await expect(drawer).toHaveJSProperty("open", true);
      await drawer.getByRole("link", { name: "About Us", exact: true }).click();
      await expect(page).toHaveURL(/\/about$/);
      await expect(drawer).toBeHidden();
    });
  });

  test.describe("at phone width, without React", () => {
    test.use({ viewport: PHONE });

    test("the drawer opens and closes before React has loaded", async ({ page }) => {
      const { held } = await holdReact(page);
      await page.goto("/");
      const menuButton = page.getByRole("button", { name: "Open menu" });
      await menuButton.click();
      const drawer = page.getByRole("dialog", { name: "Menu" });
      await expect(drawer).toBeVisible();
      await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
      await page.keyboard.press("Escape");
      await expect(drawer).toBeHidden();
      await expect(menuButton).toBeFocused();
      // The click did start the scripts, and React DOM is the piece being held.
      await expect.poll(held).toBeGreaterThan(0);
      expect(await page.evaluate(isHydrated)).toBe(false);
    });
  });
});

test.describe("the page being left stays quiet", () => {
  test.use({ viewport: PHONE, hasTouch: true });

  test("a tap on a link to another page starts no script on either page; a tap elsewhere starts them", async ({ page }) => {
    // Asked for, not only finished: the navigation would cancel a script the old page started.
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto("/");
    await waitForQuietNetwork(page);
    await page.getByRole("contentinfo").getByRole("link", { name: "About Us", exact: true }).tap();
    await expect(page).toHaveURL(/\/about$/);
    await waitForQuietNetwork(page);
    await pageIdle(page);
    expect(scripts).toEqual([]);
    expect(await page.evaluate(isHydrated)).toBe(false);

    await page.getByRole("heading", { level: 1 }).tap();
    await page.waitForFunction(isHydrated);
    expect(scripts.length).toBeGreaterThan(0);
  });
});
