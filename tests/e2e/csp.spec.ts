import { DESKTOP, PHONE, expect, test, waitForHydration, type Guard } from "./fixtures";
import { POLICY_MESSAGE, expectNoPolicyViolations, recordPolicyViolations } from "./support/csp";
import { pageSettled } from "./support/settled";

// The Content-Security-Policy is enforced: anything it refuses (a script whose hash it lacks, an
// inline style, a fetch or frame elsewhere) would break the page. The events' tabs and archive, the
// drawer and a form without JavaScript run here with two detectors (support/csp.ts): the browser's
// `securitypolicyviolation` events, and its console (where Chromium also reports header problems).
// Every page, loaded, hydrated and left client-side, is checked in every-page.spec.ts.
// The fixture already fails a test on any console error; these tests also name what was refused.

test.describe("no CSP violation in the events (desktop)", () => {
  test.use({ viewport: DESKTOP });

  test("events: tabs, the archive and back, client-side", async ({ page }) => {
    const recorder = await recordPolicyViolations(page);
    await page.goto("/events");
    await waitForHydration(page);
    const tabs = page.getByRole("navigation", { name: "Events" });
    await tabs.getByRole("link", { name: "Past" }).click();
    await expect(page).toHaveURL(/\?tab=past$/);
    await expect(page.getByRole("heading", { name: "Past events" })).toBeVisible();
    await tabs.getByRole("link", { name: "Upcoming" }).click();
    await expect(page.getByRole("heading", { name: "Upcoming events" })).toBeVisible();
    await page.getByRole("link", { name: /^More upcoming events/ }).click();
    await expect(page).toHaveURL(/\/events\/month\//);
    await page.goBack();
    await expect(page).not.toHaveURL(/\/events\/month\//);
    await expect(page.locator("main article").first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    await pageSettled(page);
    expectNoPolicyViolations(recorder);
  });
});

test.describe("no CSP violation with the drawer (phone)", () => {
  test.use({ viewport: PHONE });

  test("open the drawer before and after hydration, navigate from it", async ({ page }) => {
    const recorder = await recordPolicyViolations(page);
    await page.goto("/");
    // The first tap opens the native dialog and starts hydration.
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await expect(drawer).toBeVisible();
    await drawer.getByRole("link", { name: "Contact Us", exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(drawer).toBeHidden();
    await waitForHydration(page);
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(drawer).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    expectNoPolicyViolations(recorder);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: PHONE });

  test("the contact form may submit to the survey's host (form-action)", async ({ page, context }) => {
    const recorder = await recordPolicyViolations(page);
    await page.goto("/contact");
    await page.getByLabel("Full Name").fill("Ada");
    await page.getByLabel("Email").fill("ada@example.org");
    await page.getByLabel("Message").fill("Hello");
    // CSP checks form-action before any request; a request means it was allowed (the fixture then aborts it).
    const [request] = await Promise.all([
      context.waitForEvent("request", (r) => r.url().startsWith("https://members.example.org/")),
      page.getByRole("button", { name: /contact us/i }).click(),
    ]);
    expect(request.url()).toMatch(/^https:\/\/members\.example\.org\/survey\/get-in-touch/);
    expectNoPolicyViolations(recorder);
  });
});

/** Removes the console errors this test provoked on purpose from the fixture's list. */
function tolerateRefusals(guard: Guard) {
  for (let i = guard.issues.length - 1; i >= 0; i--) {
    if (POLICY_MESSAGE.test(guard.issues[i]!.text)) guard.issues.splice(i, 1);
  }
}

test("the detectors work: an injected inline script and style are refused and reported", async ({ page, guard }) => {
  const recorder = await recordPolicyViolations(page);
  await page.goto("/about");
  const ran = await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__injectedRan = true";
    document.body.append(script);
    const div = document.createElement("div");
    div.innerHTML = '<p id="injected-style" style="color: rgb(255, 0, 0)">x</p>';
    document.body.append(div);
    // An inline script that may run runs as it is appended: nothing to wait for.
    return (window as unknown as { __injectedRan?: boolean }).__injectedRan === true;
  });
  expect(ran).toBe(false);
  await expect(page.locator("#injected-style")).not.toHaveCSS("color", "rgb(255, 0, 0)");
  await expect.poll(() => recorder.violations.length).toBeGreaterThanOrEqual(2);
  expect(recorder.violations.join("\n")).toMatch(/script-src-elem refused inline/);
  expect(recorder.violations.join("\n")).toMatch(/style-src-attr refused inline/);
  expect(recorder.consoleLines.length).toBeGreaterThan(0);
  tolerateRefusals(guard);
});

test("an inline script in the page that the header does not name is blocked; the page's own still run", async ({ page, guard }) => {
  const recorder = await recordPolicyViolations(page);
  // As if something between us and the visitor (or a stored injection) added a script to the HTML.
  await page.route("**/about", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace("</body>", "<script>window.__tampered = true;</script></body>");
    await route.fulfill({ response, body: html });
  });
  await page.goto("/about");
  await waitForHydration(page);
  expect(await page.evaluate(() => (window as unknown as { __tampered?: boolean }).__tampered === true)).toBe(false);
  await expect.poll(() => recorder.violations.length).toBeGreaterThanOrEqual(1);
  expect(recorder.violations.join("\n")).toMatch(/script-src-elem refused inline/);
  tolerateRefusals(guard);
});
