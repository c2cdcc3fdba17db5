import { PHONE, DESKTOP, expect, test, waitForHydration } from "./fixtures";

for (const path of ["/this-page-does-not-exist", "/about/team/nobody", "/apply-now?x=1"]) {
  test(`unknown path ${path} answers 404 with the not-found card`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeVisible();
    await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
    // The 404 page must not be indexed.
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    const home = page.getByRole("main").getByRole("link", { name: "Back to the homepage" });
    await expect(home).toHaveAttribute("href", "/");
    await home.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1, name: "Join the private network for founders" })).toBeVisible();
  });
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`the 404 page keeps the site layout and no nav link is current (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page.locator('[aria-current="page"]')).toHaveCount(0);
  });
}
