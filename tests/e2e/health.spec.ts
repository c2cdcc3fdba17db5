import {
  DESKTOP,
  NOT_FOUND_PATH,
  PAGES,
  PHONE,
  expect,
  formatIssues,
  scrollToBottom,
  test,
  waitForHydration,
  waitForQuietNetwork,
} from "./fixtures";

const ALL = [...PAGES, { path: NOT_FOUND_PATH, h1: "404 Page Not Found", navLabel: null }];

// Hydration mismatches, React errors and any other console error or warning fail these tests
// (the fixture also fails any other test that logs one).
for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`no hydration or console errors (${viewport.width} px)`, () => {
    test.use({ viewport });

    for (const { path, h1 } of ALL) {
      test(path, async ({ page, consoleIssues }) => {
        const response = await page.goto(path);
        expect(response?.status()).toBe(path === NOT_FOUND_PATH ? 404 : 200);
        await waitForHydration(page);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
        // Load everything lazy, then let the page settle.
        await scrollToBottom(page);
        await waitForQuietNetwork(page);
        await expect(page.getByRole("contentinfo")).toBeInViewport();
        // Nothing sticks out sideways (no horizontal scrolling).
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        // The page is interactive after hydration: a client-side navigation works.
        await page.getByRole("contentinfo").getByRole("link", { name: "About Us", exact: true }).click();
        await expect(page).toHaveURL(/\/about$/);
        await expect(page.getByRole("heading", { level: 1, name: "Run by founders, for founders" })).toBeVisible();
        expect(consoleIssues, formatIssues(consoleIssues)).toEqual([]);
      });
    }
  });
}

test("no broken local images or stylesheets on any page", async ({ page, baseURL }) => {
  const failures: string[] = [];
  page.on("response", (r) => {
    if (new URL(r.url()).origin === new URL(baseURL!).origin && r.status() >= 400 && r.request().resourceType() !== "document") {
      failures.push(`${r.status()} ${r.url()}`);
    }
  });
  for (const { path } of PAGES) {
    await page.goto(path);
    await waitForHydration(page);
    await scrollToBottom(page);
    await waitForQuietNetwork(page);
    const broken = await page
      .locator("img")
      .evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.currentSrc || img.src),
      );
    expect(broken, `broken images on ${path}`).toEqual([]);
  }
  expect(failures).toEqual([]);
});
