import { expect, test, waitForHydration } from "./fixtures";

// The server answers many addresses with one stored page: the same bytes for /about and
// /about?utm_source=x, one 404 page for every unknown path. Each must still come alive in the
// browser at the address the visitor typed, without a hydration error (the fixture fails on any).

test("a page reached with query parameters it ignores hydrates and navigates", async ({ page }) => {
  await page.goto("/about?utm_source=newsletter&r=123");
  await waitForHydration(page);
  await expect(page).toHaveURL(/\/about\?utm_source=newsletter&r=123$/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Member Events", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Member Events");
});

test("the events page keeps its tab whatever else the address carries", async ({ page }) => {
  await page.goto("/events?tab=past&fbclid=abc");
  await expect(page.getByRole("heading", { name: "Past events" })).toBeVisible();
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Past events" })).toBeVisible();
});

test("the one stored 404 page hydrates at any unknown address", async ({ page }) => {
  for (const path of ["/wp-login.php", "/a/b/c?x=1"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, "\\?")}$`));
  }
});

test("a trailing slash or other letter case leads to the page's one address", async ({ page }) => {
  await page.goto("/About/");
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
