import type { Browser, BrowserContext, Page } from "@playwright/test";
import { DESKTOP, NOT_FOUND_PATH, PAGES, expect, isLoopback, test, waitForHydration } from "./fixtures";
import { withoutSpeculationRules } from "./support/no-speculation-rules";
import { pageSettled } from "./support/settled";

// The pages' speculation rules (app/lib/speculation-rules.ts), in Chromium. These tests use a
// context of their own without request interception, which cancels speculative loads: they watch
// instead that nothing leaves loopback, and fail on any CSP violation or console error.

type Watch = { violations: string[]; console: string[]; external: string[] };

async function openContext(browser: Browser, baseURL: string | undefined): Promise<{ context: BrowserContext; page: Page; watch: Watch }> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, serviceWorkers: "block" });
  const watch: Watch = { violations: [], console: [], external: [] };
  context.on("request", (request) => {
    if (!isLoopback(request.url())) watch.external.push(request.url());
  });
  const page = await context.newPage();
  await page.exposeFunction("__reportViolation", (line: string) => void watch.violations.push(line));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportViolation: (line: string) => void }).__reportViolation;
      void report(`${event.effectiveDirective} refused ${event.blockedURI || "inline"} on ${location.pathname}`);
    });
  });
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") watch.console.push(`[${message.type()}] ${message.text()}`);
  });
  page.on("pageerror", (error) => watch.console.push(`[pageerror] ${error.message}`));
  return { context, page, watch };
}

function expectClean(watch: Watch) {
  expect(watch.violations, watch.violations.join("\n")).toEqual([]);
  expect(watch.console, watch.console.join("\n")).toEqual([]);
  expect(watch.external, watch.external.join("\n")).toEqual([]);
}

/** Runs in the page: every link's href, and whether the page's rules name it (Chromium's URLPattern, the rules' selector). */
function linksTheRulesName(): { href: string; tab: boolean; named: boolean }[] {
  const script = document.querySelector('script[type="speculationrules"]');
  const rules = JSON.parse(script?.textContent ?? "{}") as Record<
    string,
    { where: { and: [{ href_matches: string[] }, { not: { selector_matches: string } }] } }[]
  >;
  const rule = rules.prerender?.[0];
  if (!rule) throw new Error("no prerender rule");
  const [{ href_matches: patterns }, { not: exclusion }] = rule.where.and;
  const URLPatternClass = (window as unknown as { URLPattern: new (input: string, base: string) => { test(url: string): boolean } })
    .URLPattern;
  return [...document.querySelectorAll<HTMLAnchorElement>("a[href]")].map((link) => ({
    href: link.getAttribute("href") ?? "",
    tab: link.hasAttribute("data-tab"),
    named:
      patterns.some((pattern) => new URLPatternClass(pattern, document.baseURI).test(link.href)) &&
      !link.matches(exclusion.selector_matches),
  }));
}

const PAGE_PATHS = /^\/(apply|about|contact|portal|events(\?.*)?|events\/[^/?#]+|events\/month\/[^/?#]+(\/\d+)?)?$/;

test.describe("speculation rules", () => {
  for (const path of [...PAGES.map((p) => p.path), NOT_FOUND_PATH]) {
    test(`${path}: the rules are in the page, allowed by the strict CSP, and name only our pages' links`, async ({ browser, baseURL }) => {
      const { context, page, watch } = await openContext(browser, baseURL);
      try {
        const response = await page.goto(path);
        const csp = response?.headers()["content-security-policy"] ?? "";
        expect(csp).toMatch(/script-src 'self' 'sha256-[^;]*;/);
        expect(csp).not.toMatch(/unsafe|nonce|inline-speculation-rules/);
        expect(await page.evaluate(() => HTMLScriptElement.supports("speculationrules"))).toBe(true);
        const links = await page.evaluate(linksTheRulesName);
        expect(links.length).toBeGreaterThan(5);
        for (const { href, tab, named } of links) {
          // The events tabs switch in place: never loaded ahead.
          const ours = href.startsWith("/") && PAGE_PATHS.test(href) && !tab;
          expect(named, `${href} on ${path}`).toBe(ours);
        }
        await pageSettled(page);
        // The unknown path's own 404 is the one resource error Chromium reports there.
        if (path === NOT_FOUND_PATH) watch.console = watch.console.filter((line) => !line.includes("status of 404 (Not Found)"));
        expectClean(watch);
      } finally {
        await context.close();
      }
    });
  }

  test("/events: no download, share image, API or outside link is named", async ({ browser, baseURL }) => {
    const { context, page, watch } = await openContext(browser, baseURL);
    try {
      await page.goto("/events");
      const links = await page.evaluate(linksTheRulesName);
      const never = links.filter(({ href }) => /\.ics|\/api\/|og\.png|^https?:|^mailto:|^#/.test(href));
      expect(never.length).toBeGreaterThan(3);
      for (const { href, named } of never) expect(named, href).toBe(false);
      expect(links.some(({ href, named }) => /^\/events\/[^/]+$/.test(href) && named)).toBe(true);
      expectClean(watch);
    } finally {
      await context.close();
    }
  });

  test("resting the pointer on a link loads the page ahead; the click shows that copy", async ({ browser, baseURL }) => {
    const { context, page, watch } = await openContext(browser, baseURL);
    try {
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
      expectClean(watch);
    } finally {
      await context.close();
    }
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
  test("a browser without them navigates in-app once React runs, the page's code fetched on intent", async ({ browser, baseURL }) => {
    const { context, page, watch } = await openContext(browser, baseURL);
    try {
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
      expectClean(watch);
    } finally {
      await context.close();
    }
  });

  test("a browser with them leaves by a document navigation once React runs, to the copy loaded ahead", async ({ browser, baseURL }) => {
    const { context, page, watch } = await openContext(browser, baseURL);
    try {
      await page.goto("/");
      await waitForHydration(page);
      await page.evaluate(() => ((window as unknown as Record<string, boolean>).__sameDocument = true));
      await followAboutLink(page);
      expect(await page.evaluate(() => (window as unknown as Record<string, boolean>).__sameDocument)).toBeUndefined();
      expectClean(watch);
    } finally {
      await context.close();
    }
  });
});
