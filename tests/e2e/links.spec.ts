import type { Locator } from "@playwright/test";
import { DESKTOP, NOT_FOUND_PATH, PAGES, PHONE, expect, test, waitForHydration } from "./fixtures";

const LOGIN_URL = "https://members.example.org/login";
const APPLICATION_URL = "https://members.example.org/survey/apply";

async function expectExternalNewTab(link: Locator, href: string) {
  await expect(link).toHaveAttribute("href", href);
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", /(^|\s)noopener(\s|$)/);
  await expect(link).toHaveAttribute("rel", /(^|\s)noreferrer(\s|$)/);
}

test.describe("call-to-action targets", () => {
  test.use({ viewport: DESKTOP });

  test("header Login opens the provider login in a new tab; Apply goes to /apply", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const header = page.getByRole("banner");
    await expectExternalNewTab(header.getByRole("link", { name: /^Login/ }), LOGIN_URL);
    const apply = header.getByRole("link", { name: "Apply", exact: true });
    await expect(apply).toHaveAttribute("href", "/apply");
    await expect(apply).not.toHaveAttribute("target", /.*/);
    await apply.click();
    await expect(page).toHaveURL(/\/apply$/);
    await expect(page.getByRole("heading", { level: 1, name: "Apply to Join" })).toBeVisible();
  });

  test("the homepage's Apply to Join buttons go to /apply", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const buttons = page.getByRole("main").getByRole("link", { name: "Apply to Join" });
    await expect(buttons).toHaveCount(2);
    for (const button of await buttons.all()) await expect(button).toHaveAttribute("href", "/apply");
    await buttons.first().click();
    await expect(page).toHaveURL(/\/apply$/);
  });

  test("Start Application opens the application survey in a new tab", async ({ page, context }) => {
    await context.route("https://members.example.org/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<h1>Application</h1>" }),
    );
    await page.goto("/apply");
    await waitForHydration(page);
    const start = page.getByRole("link", { name: /^Start Application/ });
    await expectExternalNewTab(start, APPLICATION_URL);
    await expect(page.getByRole("region", { name: "Three steps to membership" }).getByRole("heading", { level: 3 })).toHaveText([
      /Step 1: Complete the application/,
      /Step 2: Review process/,
      /Step 3: Welcome aboard/,
    ]);
    const [popup] = await Promise.all([context.waitForEvent("page"), start.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(APPLICATION_URL);
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    await expect(page).toHaveURL(/\/apply$/);
  });

  test("Access Member Portal opens the provider login in a new tab", async ({ page }) => {
    await page.goto("/portal");
    await waitForHydration(page);
    await expectExternalNewTab(page.getByRole("link", { name: /^Access Member Portal/ }), LOGIN_URL);
  });
});

test.describe('every link that opens a new tab has rel="noopener noreferrer"', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    for (const path of [...PAGES.map((p) => p.path), NOT_FOUND_PATH]) {
      test(`${path} at ${viewport.width} px`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.goto(path);
        await waitForHydration(page);
        if (viewport === PHONE) {
          // The drawer's links exist only while it is open.
          await page.getByRole("button", { name: "Open menu" }).click();
          await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
        }
        const newTabTargets = page.locator('a[target="_blank" i], area[target="_blank" i], form[target="_blank" i]');
        // Every page has at least the Login link (header or drawer).
        expect(await newTabTargets.count()).toBeGreaterThan(0);
        const offenders = await newTabTargets.evaluateAll((elements) =>
          elements
            .filter((el) => {
              const rel = (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
              return !(rel.includes("noopener") && rel.includes("noreferrer"));
            })
            .map((el) => el.outerHTML.slice(0, 160)),
        );
        expect(offenders).toEqual([]);
        // And no link opens a named/other window without protection either.
        const otherTargets = await page
          .locator("a[target]:not([target='_blank' i]):not([target='_self' i])")
          .evaluateAll((els) => els.map((el) => el.outerHTML.slice(0, 160)));
        expect(otherTargets).toEqual([]);
      });
    }
  }
});
