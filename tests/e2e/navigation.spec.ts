import { DESKTOP, PHONE, expect, test, waitForHydration } from "./fixtures";

// Each page's own link marked current, in the header and the drawer: every-page.spec.ts.
test.describe("active navigation link (desktop, 1280 px)", () => {
  test.use({ viewport: DESKTOP });

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
