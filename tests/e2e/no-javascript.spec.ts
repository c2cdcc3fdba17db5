import { DESKTOP, NOT_FOUND_PATH, PAGES, PHONE, expect, test } from "./fixtures";

// The server renders every page: with JavaScript off, the content is all there.
test.use({ javaScriptEnabled: false });

const EXPECTED: Record<string, { h2: string[]; text: string[] }> = {
  "/": {
    h2: ["Featured founders", "Starting a company is lonely", "Member Benefits"],
    text: ["Maya Okafor", "Monthly core groups of eight founders"],
  },
  "/apply": { h2: ["Three steps to membership"], text: ["Complete the application", "Review process", "Welcome aboard"] },
  "/about": {
    h2: ["Mission & Values", "Global Leadership Board", "The Columbia Advantage"],
    text: ["Elena Vasquez", "not affiliated with"],
  },
  "/contact": { h2: ["Get In Touch"], text: ["hello@founderscircle.example.org"] },
  "/events": { h2: ["Upcoming events", "Shared calendar"], text: [] },
  "/portal": { h2: ["In the portal"], text: ["Member directory & networking tools", "Partner discounts & vendor database"] },
};

// A page load without JavaScript is cheap, a test's context is not: one test per width, a step per page.
for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`without JavaScript (${viewport.width} px)`, () => {
    test.use({ viewport });

    test("every page renders readable content, the 404 page too, and a link is a plain document navigation", async ({ page }) => {
      for (const { path, h1 } of PAGES) {
        await test.step(`${path} renders readable content`, async () => {
          const response = await page.goto(path);
          expect(response?.status()).toBe(200);
          // Proof that scripts really are off: React never hydrated.
          expect(await page.locator("main").evaluate((el) => Object.keys(el).some((k) => k.startsWith("__react")))).toBe(false);

          await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
          await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
          const { h2, text } = EXPECTED[path]!;
          for (const name of h2) await expect(page.getByRole("heading", { level: 2, name, exact: true })).toBeVisible();
          for (const t of text) await expect(page.getByRole("main").getByText(t).first()).toBeVisible();
          await expect(page.getByRole("contentinfo").getByText("© 2024")).toBeVisible();

          // The visitor can still get around: a visible navigation with every page.
          const nav = page.getByRole("navigation", { name: "Main" }).filter({ visible: true });
          await expect(nav).toHaveCount(1);
          for (const label of ["Homepage", "About Us", "Contact Us", "Member Events", "Member Portal"]) {
            await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
          }
        });
      }

      await test.step("the 404 page renders", async () => {
        const response = await page.goto(NOT_FOUND_PATH);
        expect(response?.status()).toBe(404);
        await expect(page.getByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeVisible();
        await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
        await expect(page.getByRole("link", { name: "Back to the homepage" })).toHaveAttribute("href", "/");
      });

      await test.step("a link works (plain document navigation)", async () => {
        await page.goto("/");
        await page.getByRole("contentinfo").getByRole("link", { name: "Events", exact: true }).click();
        await expect(page).toHaveURL(/\/events$/);
        await expect(page.getByRole("heading", { level: 1, name: "Member Events" })).toBeVisible();
      });
    });
  });
}
