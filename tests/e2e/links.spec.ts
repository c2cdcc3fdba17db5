import type { Locator } from "@playwright/test";
import { DESKTOP, expect, test, waitForHydration } from "./fixtures";

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

  test("the homepage: header Login opens the provider login in a new tab; Apply and both Apply to Join buttons go to /apply", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    const header = page.getByRole("banner");
    await expectExternalNewTab(header.getByRole("link", { name: /^Login/ }), LOGIN_URL);
    const apply = header.getByRole("link", { name: "Apply", exact: true });
    await expect(apply).toHaveAttribute("href", "/apply");
    await expect(apply).not.toHaveAttribute("target", /.*/);
    const buttons = page.getByRole("main").getByRole("link", { name: "Apply to Join" });
    await expect(buttons).toHaveCount(2);
    for (const button of await buttons.all()) await expect(button).toHaveAttribute("href", "/apply");
    await apply.click();
    await expect(page).toHaveURL(/\/apply$/);
    await expect(page.getByRole("heading", { level: 1, name: "Apply to Join" })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await buttons.first().click();
    await expect(page).toHaveURL(/\/apply$/);
  });

  test("Start Application opens the application survey in a new tab; Access Member Portal opens the provider login in one", async ({
    page,
    context,
  }) => {
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

    // Access Member Portal, on /portal, the same way.
    await page.goto("/portal");
    await waitForHydration(page);
    await expectExternalNewTab(page.getByRole("link", { name: /^Access Member Portal/ }), LOGIN_URL);
  });
});
