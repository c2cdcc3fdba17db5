import { PHONE, DESKTOP, expect, test, waitForHydration } from "./fixtures";

// One page and its context for every unknown path (the first load in a context is the dearest); the 404 of each
// page's own checks is in every-page.spec.ts.
test("unknown paths answer 404 with the not-found card in the site's layout, no nav link current, a link back home", async ({ page }) => {
  for (const path of ["/this-page-does-not-exist", "/about/team/nobody", "/apply-now?x=1", "/no/such/page"]) {
    await test.step(path, async () => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeVisible();
      await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
      // The 404 page must not be indexed.
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
      // The site's layout at a phone's width and a laptop's, with no link current.
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        await expect(page.getByRole("banner")).toBeVisible();
        await expect(page.getByRole("contentinfo")).toBeVisible();
        await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
        await expect(page.locator('[aria-current="page"]')).toHaveCount(0);
      }
      const home = page.getByRole("main").getByRole("link", { name: "Back to the homepage" });
      await expect(home).toHaveAttribute("href", "/");
      await home.click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("heading", { level: 1, name: "Join the private network for founders" })).toBeVisible();
    });
  }
});
