import type { Page } from "@playwright/test";
import { DESKTOP, expect, test, waitForHydration } from "./fixtures";
import { expectNoPolicyViolations, recordPolicyViolations, type PolicyRecorder } from "./support/csp";
import { withoutSpeculationRules } from "./support/no-speculation-rules";
import { pageSettled } from "./support/settled";
import { linksTheRulesName } from "./support/speculation";

// The pages' speculation rules (app/lib/speculation-rules.ts), in Chromium. That each page's rules are there, allowed
// by its policy, and name only our pages' links is a step of every-page.spec.ts. Nothing here intercepts a request
// (interception cancels speculative loads); each test fails on any policy violation, on a request that tried to leave
// loopback, and (the fixture) on any console error.

test.use({ viewport: DESKTOP });

// Every test here: nothing refused by the policy, nothing that tried to leave loopback.
let policy: PolicyRecorder;
test.beforeEach(async ({ page }) => {
  policy = await recordPolicyViolations(page);
});
test.afterEach(({ blockedRequests }) => {
  expectNoPolicyViolations(policy);
  expect(blockedRequests).toEqual([]);
});

test.describe("speculation rules", () => {
  test("/events: no download, share image, API or outside link is named", async ({ page }) => {
    await page.goto("/events");
    const links = await page.evaluate(linksTheRulesName);
    const never = links.filter(({ href }) => /\.ics|\/api\/|og\.png|^https?:|^mailto:|^#/.test(href));
    expect(never.length).toBeGreaterThan(3);
    for (const { href, named } of never) expect(named, href).toBe(false);
    expect(links.some(({ href, named }) => /^\/events\/[^/]+$/.test(href) && named)).toBe(true);
  });

  test("resting the pointer on a link loads the page ahead; the click shows that copy", async ({ page, context }) => {
    const speculative: string[] = [];
    context.on("request", (request) => {
      const purpose = request.headers()["sec-purpose"];
      if (purpose?.startsWith("prefetch")) speculative.push(`${new URL(request.url()).pathname} ${purpose}`);
    });
    await page.goto("/");
    const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About Us", exact: true });
    await link.hover();
    // Under DevTools Chromium does not prerender (PrerenderingDisabledByDevTools): it prefetches.
    await expect.poll(() => speculative).toContain("/about prefetch");
    await link.click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Run by founders, for founders");
    const deliveryType = await page.evaluate(
      () => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming & { deliveryType?: string }).deliveryType,
    );
    expect(deliveryType).toBe("navigational-prefetch");
    await pageSettled(page);
  });
});

async function followAboutLink(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About Us", exact: true }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Run by founders, for founders");
}

// app/lib/loads-ahead.ts: document navigations where the next page can be loaded ahead, in-app
// navigations with intent prefetch where it cannot.
test.describe("with and without speculation rules", () => {
  test("a browser without them navigates in-app once React runs, the page's code fetched on intent", async ({ page, context }) => {
    await context.addInitScript(withoutSpeculationRules);
    const fetched: string[] = [];
    context.on("request", (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto("/");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as Record<string, boolean>).__sameDocument = true));
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About Us", exact: true }).hover();
    // /about has no data of its own, and the root's never changes: its module is all it needs.
    await expect.poll(() => fetched.some((path) => /^\/assets\/about-[\w-]+\.js$/.test(path))).toBe(true);
    await followAboutLink(page);
    expect(await page.evaluate(() => (window as unknown as Record<string, boolean>).__sameDocument)).toBe(true);
    expect(fetched.filter((path) => path.endsWith(".data"))).toEqual([]);
  });

  test("a browser with them leaves by a document navigation once React runs, to the copy loaded ahead", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as Record<string, boolean>).__sameDocument = true));
    await followAboutLink(page);
    expect(await page.evaluate(() => (window as unknown as Record<string, boolean>).__sameDocument)).toBeUndefined();
  });
});
