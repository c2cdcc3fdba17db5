import { PHONE, expect, test, waitForHydration } from "./fixtures";

test.use({ viewport: PHONE });

test.describe("mobile drawer (375 px)", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
  });

  test("the desktop navigation is hidden and the menu button opens the drawer", async ({ page }) => {
    // At 375 px only the menu button is shown; the inline nav and buttons are not.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(page.getByRole("banner").getByRole("link", { name: "Apply", exact: true })).toBeHidden();
    await expect(page.getByRole("banner").getByRole("link", { name: /^Login/ })).toBeHidden();

    const menuButton = page.getByRole("button", { name: "Open menu" });
    await expect(menuButton).toBeVisible();
    // No aria-expanded beside its invoker command: the HTML standard forbids it there.
    await expect(menuButton).not.toHaveAttribute("aria-expanded");
    const drawer = page.getByRole("dialog", { name: "Menu", includeHidden: true });
    await expect(drawer).toHaveJSProperty("open", false);
    await menuButton.click();

    await expect(drawer).toBeVisible();
    await expect(drawer).toHaveJSProperty("open", true);
    // It slides in from the left edge.
    await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
    const box = await drawer.boundingBox();
    expect(box!.width).toBeLessThan(PHONE.width);

    for (const name of ["Homepage", "About Us", "Contact Us", "Member Events", "Member Portal"]) {
      await expect(drawer.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(drawer.getByRole("link", { name: "Apply", exact: true })).toBeVisible();
    await expect(drawer.getByRole("link", { name: /^Login/ })).toBeVisible();
  });

  test("focus is trapped inside the open drawer (Tab and Shift+Tab)", async ({ page }) => {
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await expect(drawer).toBeVisible();

    const focusables = await drawer.locator("a[href], button").count();
    expect(focusables).toBeGreaterThanOrEqual(8); // close button, 5 links, Apply, Login
    const focusInsideDrawer = () =>
      page.evaluate(() => {
        const dialog = document.querySelector("dialog[open]");
        return dialog !== null && document.activeElement !== null && dialog.contains(document.activeElement);
      });

    await expect.poll(focusInsideDrawer).toBe(true);
    const seen = new Set<string>();
    for (let i = 0; i < focusables * 2 + 1; i++) {
      await page.keyboard.press("Tab");
      expect(await focusInsideDrawer(), `focus left the drawer after ${i + 1} Tab presses`).toBe(true);
      seen.add(
        await page.evaluate(() => document.activeElement?.textContent?.trim() || document.activeElement?.getAttribute("aria-label") || ""),
      );
    }
    // Tab really moves through every control, and cycles (twice round without leaving).
    expect(seen.size).toBe(focusables);
    for (let i = 0; i < focusables + 1; i++) {
      await page.keyboard.press("Shift+Tab");
      expect(await focusInsideDrawer(), `focus left the drawer after ${i + 1} Shift+Tab presses`).toBe(true);
    }
  });

  // One page load for the three: the current page's link, another page's, then Apply.
  test("choosing a link closes the drawer: the current page's, another page's (the new page then current), and Apply", async ({ page }) => {
    const menuButton = page.getByRole("button", { name: "Open menu" });
    const drawer = page.getByRole("dialog", { name: "Menu" });

    await menuButton.click();
    const current = drawer.getByRole("link", { name: "Homepage", exact: true });
    await expect(current).toHaveAttribute("aria-current", "page");
    await current.click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/$/);

    await menuButton.click();
    await drawer.getByRole("link", { name: "About Us", exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Run by founders, for founders" })).toBeVisible();
    // Reopened on the new page, the new page is the current one.
    await menuButton.click();
    await expect(drawer.getByRole("link", { name: "About Us", exact: true })).toHaveAttribute("aria-current", "page");

    await drawer.getByRole("link", { name: "Apply", exact: true }).click();
    await expect(page).toHaveURL(/\/apply$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Apply to Join" })).toBeVisible();
  });

  test("choosing Login opens the provider in a new tab and closes the drawer", async ({ page, context }) => {
    await context.route("https://members.example.org/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>Provider</title><h1>Provider login</h1>" }),
    );
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    const login = drawer.getByRole("link", { name: /^Login/ });
    await expect(login).toHaveAttribute("target", "_blank");
    const [popup] = await Promise.all([context.waitForEvent("page"), login.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe("https://members.example.org/login");
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/$/);
  });

  // One page load for the three ways out.
  test("Escape and the close button close the drawer and return focus to the menu button; so does a click on the overlay", async ({
    page,
  }) => {
    const menuButton = page.getByRole("button", { name: "Open menu" });
    const drawer = page.getByRole("dialog", { name: "Menu" });

    await menuButton.click();
    await expect(drawer).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(menuButton).toBeFocused();
    await expect(page.getByRole("dialog", { name: "Menu", includeHidden: true })).toHaveJSProperty("open", false);

    await menuButton.click();
    await drawer.getByRole("button", { name: "Close menu" }).click();
    await expect(drawer).toBeHidden();
    await expect(menuButton).toBeFocused();

    await menuButton.click();
    await expect(drawer).toBeVisible();
    await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
    const box = (await drawer.boundingBox())!;
    // A point on the overlay, right of the drawer panel.
    const x = Math.round(box.x + box.width + (PHONE.width - box.width) / 2);
    await page.mouse.click(x, PHONE.height / 2);
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/$/);
  });

  test("the page behind the open drawer is hidden from assistive technology until it closes", async ({ page }) => {
    // What a screen reader gets: Chromium's own accessibility tree.
    const cdp = await page.context().newCDPSession(page);
    const mainExposed = async () => {
      const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as { nodes: { role?: { value?: string }; ignored: boolean }[] };
      return nodes.some((node) => node.role?.value === "main" && !node.ignored);
    };
    const focusInMain = () =>
      page
        .locator("main a[href]")
        .first()
        .evaluate((link: HTMLElement) => {
          link.focus();
          return document.activeElement === link;
        });

    expect(await mainExposed()).toBe(true);
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
    await expect.poll(mainExposed).toBe(false);
    expect(await focusInMain()).toBe(false);
    await page.keyboard.press("Escape");
    await expect.poll(mainExposed).toBe(true);
    expect(await focusInMain()).toBe(true);
  });
});
