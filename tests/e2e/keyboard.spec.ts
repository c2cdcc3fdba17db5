import type { Page } from "@playwright/test";
import { DESKTOP, PHONE, expect, test, waitForHydration } from "./fixtures";
import { describeProblems, focusProblem, probeFocus, resetFocusProbe, tabAndProbe, type FocusStop } from "./support/focus";

// Keyboard only: no clicks, no fill(); every action is a key press.

const NAV = ["Homepage", "About Us", "Contact Us", "Member Events", "Member Portal"];

/** Login's name carries "(opens in a new tab)" after it. */
const isNamed = (stop: FocusStop, name: string) => stop.name === name || (name === "Login" && stop.name.startsWith("Login"));

/** Presses Tab until the focused element matches, failing after `max` presses. */
async function tabTo(page: Page, matches: (stop: FocusStop) => boolean, what: string, max = 40): Promise<FocusStop> {
  for (let i = 0; i < max; i++) {
    const { current } = await tabAndProbe(page);
    if (matches(current)) return current;
  }
  throw new Error(`${what} was not reached within ${max} Tab presses`);
}

test.describe("keyboard at 1280 px", () => {
  test.use({ viewport: DESKTOP });

  test("the first Tab reaches the skip link, which moves focus to the main content", async ({ page }) => {
    // No waiting for hydration: the skip link is plain HTML, and a visitor's first Tab may come first.
    await page.goto("/");
    const { current } = await tabAndProbe(page);
    expect(current.name).toBe("Skip to main content");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    expect(focusProblem(current)).toBeNull();

    await page.keyboard.press("Enter");
    await expect(page.getByRole("main")).toBeFocused();
    // The next Tab continues inside main (the hero's Apply button), past the header.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("main").getByRole("link", { name: "Apply to Join" }).first()).toBeFocused();
  });

  test("every nav item, Apply and Login are reachable by Tab and visibly focused", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const wanted = [...NAV, "Apply", "Login"];
    const reached: FocusStop[] = [];
    await resetFocusProbe(page);
    for (let i = 0; i < 15 && !wanted.every((name) => reached.some((s) => isNamed(s, name))); i++) {
      const { current, previousUnfocused } = await tabAndProbe(page);
      if (reached.length > 0) reached[reached.length - 1]!.unfocused = previousUnfocused;
      reached.push(current);
    }
    // One more Tab, so the last of them is measured unfocused too.
    const { previousUnfocused } = await tabAndProbe(page);
    reached[reached.length - 1]!.unfocused = previousUnfocused;

    for (const name of wanted) {
      const stop = reached.find((s) => isNamed(s, name));
      expect(stop, `${name} was not reached by Tab (reached: ${reached.map((s) => s.name).join(", ")})`).toBeDefined();
      expect(focusProblem(stop!), `${name}`).toBeNull();
      expect(stop!.unfocused).not.toBeNull();
    }
    // In reading order: the navigation, then Apply, then Login.
    const order = wanted.map((name) => reached.findIndex((s) => isNamed(s, name)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  // Every Tab stop of every page, visibly focused and not hidden: every-page.spec.ts.

  test("the events tabs are operable from the keyboard", async ({ page }) => {
    await page.goto("/events");
    await waitForHydration(page);
    const tabs = page.getByRole("navigation", { name: "Events" });
    const past = await tabTo(page, (s) => s.name === "Past", "The Past tab");
    expect(focusProblem(past)).toBeNull();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/events\?tab=past$/);
    await expect(page.getByRole("heading", { level: 2, name: "Past events" })).toBeVisible();
    await expect(tabs.getByRole("link", { name: "Past" })).toHaveAttribute("aria-current", "page");

    // Back to Upcoming from the keyboard: Shift+Tab from Past (or the arrow keys, if they are a tablist).
    if ((await page.getByRole("tablist").count()) > 0) {
      await page.getByRole("tab", { name: "Past" }).focus();
      await page.keyboard.press("ArrowLeft");
      await expect(page.getByRole("tab", { name: "Upcoming" })).toBeFocused();
    } else {
      await expect(tabs.getByRole("link", { name: "Past" })).toBeFocused();
      await page.keyboard.press("Shift+Tab");
      await expect(tabs.getByRole("link", { name: "Upcoming" })).toBeFocused();
    }
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/events$/);
    await expect(page.getByRole("heading", { level: 2, name: "Upcoming events" })).toBeVisible();
    await expect(tabs.getByRole("link", { name: "Upcoming" })).toHaveAttribute("aria-current", "page");
  });
});

for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`contact form by keyboard (${viewport.width} px)`, () => {
    test.use({ viewport });

    test("can be filled and submitted with the keyboard alone", async ({ page, context }) => {
      // Stand-in for the provider's survey, so the new tab has somewhere to land offline.
      await context.route("https://members.example.org/**", (route) =>
        route.fulfill({ contentType: "text/html", body: "<title>Survey</title><h1>Get in touch</h1>" }),
      );
      await page.goto("/contact");
      await waitForHydration(page);
      const form = page.getByRole("form", { name: "Get In Touch" });

      // Skip the header, then Tab to the first field.
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      const name = await tabTo(page, (s) => s.tag === "input", "The Full Name field");
      expect(focusProblem(name)).toBeNull();
      await expect(form.getByLabel("Full Name")).toBeFocused();
      await page.keyboard.type("Ada Example");
      await page.keyboard.press("Tab");
      await expect(form.getByLabel("Email")).toBeFocused();
      await page.keyboard.type("ada@example.net");
      await page.keyboard.press("Tab");
      await expect(form.getByLabel("Message")).toBeFocused();
      await page.keyboard.type("Hello from the keyboard.");
      const { current: submit } = await tabAndProbe(page);
      await expect(form.getByRole("button", { name: "CONTACT US" })).toBeFocused();
      expect(focusProblem(submit)).toBeNull();

      const [popup] = await Promise.all([context.waitForEvent("page"), page.keyboard.press("Enter")]);
      // The tab opens blank, is cut from this page, then goes to the survey (components/contact-form.tsx).
      await popup.waitForURL("https://members.example.org/survey/get-in-touch");
      // Only the skip link's fragment: the page itself did not navigate.
      await expect(page).toHaveURL(/\/contact(#main)?$/);
    });
  });
}

test.describe("drawer by keyboard (375 px)", () => {
  test.use({ viewport: PHONE });

  test("Enter opens it, Tab stays inside, Escape closes it and focus returns to its button; Space opens it too", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    // Skip link, then the menu button.
    await page.keyboard.press("Tab");
    const { current: button } = await tabAndProbe(page);
    const menuButton = page.getByRole("button", { name: "Open menu" });
    await expect(menuButton).toBeFocused();
    expect(focusProblem(button)).toBeNull();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    const focusInDrawer = () =>
      page.evaluate(() => document.querySelector('[role="dialog"], dialog[open]')?.contains(document.activeElement) ?? false);

    await page.keyboard.press("Enter");
    await expect(drawer).toBeVisible();
    await expect.poll(focusInDrawer).toBe(true);

    // Twice round: every stop is inside the drawer and visibly focused; every link is reached.
    const focusables = await drawer.locator("a[href], button").count();
    const stops: FocusStop[] = [];
    await resetFocusProbe(page);
    for (let i = 0; i < focusables * 2; i++) {
      const { current, previousUnfocused } = await tabAndProbe(page);
      if (stops.length > 0) stops[stops.length - 1]!.unfocused = previousUnfocused;
      expect(current.inDialog, `Tab ${i + 1} left the drawer for "${current.name}"`).toBe(true);
      stops.push(current);
    }
    expect(describeProblems(stops)).toEqual([]);
    const names = new Set(stops.map((s) => s.name));
    for (const name of [...NAV, "Apply"]) expect(names, `${name} in the drawer`).toContain(name);
    expect([...names].some((n) => n.startsWith("Login"))).toBe(true);
    // Shift+Tab stays inside as well.
    for (let i = 0; i < focusables + 1; i++) {
      const { current } = await tabAndProbe(page, "Shift+Tab");
      expect(current.inDialog, `Shift+Tab ${i + 1} left the drawer`).toBe(true);
    }

    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(menuButton).toBeFocused();
    await expect(page.getByRole("dialog", { name: "Menu", includeHidden: true })).toHaveJSProperty("open", false);
    expect(focusProblem((await probeFocus(page)).current)).toBeNull();

    // Space, on the button the focus came back to, opens it as well (the same drawer: its Tab order is checked above).
    await page.keyboard.press("Space");
    await expect(drawer).toBeVisible();
    await expect.poll(focusInDrawer).toBe(true);
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(menuButton).toBeFocused();
  });

  test("a drawer link is followed with Enter, closing the drawer", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await expect(drawer).toBeVisible();
    await tabTo(page, (s) => s.name === "About Us", "About Us in the drawer", 12);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/about$/);
    await expect(drawer).toBeHidden();
  });
});
