import type { Locator } from "@playwright/test";
import { DESKTOP, PAGES, PHONE, expect, test, waitForHydration } from "./fixtures";

const NAV_LABELS = ["Homepage", "About Us", "Contact Us", "Member Events", "Member Portal"];

/** The page's own link is current and bold in `nav`; every other is neither. */
async function expectCurrentLink(nav: Locator, navLabel: string | null): Promise<void> {
  for (const label of NAV_LABELS) {
    const link = nav.getByRole("link", { name: label, exact: true });
    if (label === navLabel) {
      await expect(link).toHaveAttribute("aria-current", "page");
      await expect(link).toHaveCSS("font-weight", "700");
    } else {
      await expect(link).not.toHaveAttribute("aria-current", /.*/);
      await expect(link).toHaveCSS("font-weight", "400");
    }
  }
}

test.describe("active navigation link (desktop, 1280 px)", () => {
  test.use({ viewport: DESKTOP });

  for (const { path, navLabel } of PAGES) {
    test(`${path}: ${navLabel ?? "no"} link is current and bold`, async ({ page }) => {
      await page.goto(path);
      await waitForHydration(page);
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav).toBeVisible();
      await expectCurrentLink(nav, navLabel);
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(navLabel ? 1 : 0);
    });
  }

  test("the current link follows client-side navigation", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Member Portal", exact: true }).click();
    await expect(page).toHaveURL(/\/portal$/);
    await expect(nav.getByRole("link", { name: "Member Portal", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Member Portal", exact: true })).toHaveCSS("font-weight", "700");
    await expect(nav.getByRole("link", { name: "Homepage", exact: true })).not.toHaveAttribute("aria-current", /.*/);
    await expect(nav.getByRole("link", { name: "Homepage", exact: true })).toHaveCSS("font-weight", "400");
  });
});

test.describe("active navigation link (phone drawer, 375 px)", () => {
  test.use({ viewport: PHONE });

  for (const { path, navLabel } of PAGES) {
    test(`${path}: ${navLabel ?? "no"} link is current and bold in the drawer`, async ({ page }) => {
      await page.goto(path);
      await waitForHydration(page);
      await page.getByRole("button", { name: "Open menu" }).click();
      const drawer = page.getByRole("dialog", { name: "Menu" });
      await expect(drawer).toBeVisible();
      const nav = drawer.getByRole("navigation", { name: "Main" });
      await expectCurrentLink(nav, navLabel);
    });
  }
});

test.describe("scroll position on route change", () => {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`a footer link from the bottom of the homepage lands at the top (${viewport.width} px)`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto("/");
      await waitForHydration(page);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);

      const quickLinks = page.getByRole("navigation", { name: "Quick Links" });
      await quickLinks.getByRole("link", { name: "Contact", exact: true }).click();
      await expect(page).toHaveURL(/\/contact$/);
      await expect(page.getByRole("heading", { level: 1, name: "We would love to hear from you" })).toBeVisible();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      await expect(page.getByRole("heading", { level: 1 })).toBeInViewport();
    });
  }

  test("each footer Quick Link leads to its page at the top", async ({ page }) => {
    const targets = [
      { name: "About Us", path: "/about" },
      { name: "Contact", path: "/contact" },
      { name: "Events", path: "/events" },
      { name: "Apply", path: "/apply" },
    ];
    await page.goto("/");
    await waitForHydration(page);
    for (const { name, path } of targets) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await page.getByRole("navigation", { name: "Quick Links" }).getByRole("link", { name, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    }
  });
});
