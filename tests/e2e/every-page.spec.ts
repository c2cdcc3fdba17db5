import { type Locator, type Page } from "@playwright/test";
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
import { expectNoAxeViolations } from "./support/axe";
import { expectNoPolicyViolations, recordPolicyViolations } from "./support/csp";
import { describeProblems, tabThroughPage } from "./support/focus";
import { WIDTHS, report, sweep } from "./support/overflow";
import { pageSettled } from "./support/settled";
import { PAGE_PATHS, linksTheRulesName } from "./support/speculation";

// Every page, as a visitor gets it at phone and at desktop width: one load and one hydration carry each check that
// holds on every page, each a step that names itself when it fails. A load and a hydration cost Chromium about
// 0.75 s of CPU in a fresh context, so one test per page and width, not one per check. The fixture fails any of
// them on a console error or warning (a hydration mismatch among them). The desktop test also sweeps the widths from
// a small phone to a laptop (support/overflow.ts).

const ALL = [
  ...PAGES,
  { path: "/events?tab=past", h1: "Member Events", navLabel: "Member Events" },
  { path: NOT_FOUND_PATH, h1: "404 Page Not Found", navLabel: null },
] as const;

const NAV_LABELS = ["Homepage", "About Us", "Contact Us", "Member Events", "Member Portal"];

/** The page's own link is current and bold in `nav`; every other is neither. */
async function expectCurrentLink(nav: Locator, navLabel: string | null): Promise<void> {
  for (const label of NAV_LABELS) {
    const link = nav.getByRole("link", { name: label, exact: true });
    if (label === navLabel) {
      await expect(link).toHaveAttribute("aria-current", "page");
      await expect(link).toHaveCSS("font-weight", "700");
    } else {
      await expect(link).not.toHaveAttribute("aria-current", /.*/);
      await expect(link).toHaveCSS("font-weight", "400");
    }
  }
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(navLabel ? 1 : 0);
}

/** Every link (or form) that opens a new tab has rel="noopener noreferrer", and none opens a named window. */
async function expectSafeNewTabs(page: Page): Promise<void> {
  const newTabTargets = page.locator('a[target="_blank" i], area[target="_blank" i], form[target="_blank" i]');
  // Every page has at least the Login link (header or drawer).
  expect(await newTabTargets.count()).toBeGreaterThan(0);
  const offenders = await newTabTargets.evaluateAll((elements) =>
    elements
      .filter((el) => {
        const rel = (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
        return !(rel.includes("noopener") && rel.includes("noreferrer"));
      })
      .map((el) => el.outerHTML.slice(0, 160)),
  );
  expect(offenders).toEqual([]);
  const otherTargets = await page
    .locator("a[target]:not([target='_blank' i]):not([target='_self' i])")
    .evaluateAll((els) => els.map((el) => el.outerHTML.slice(0, 160)));
  expect(otherTargets).toEqual([]);
}

for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`every page at ${viewport.width} px`, () => {
    test.use({ viewport });

    for (const { path, h1, navLabel } of ALL) {
      test(path, async ({ page, baseURL, consoleIssues, blockedRequests }, testInfo) => {
        const label = `${path} at ${viewport.width} px`;
        const policy = await recordPolicyViolations(page);
        // Our own files that fail to load (images, styles, scripts); the 404 page's document is meant to.
        const failedFiles: string[] = [];
        page.on("response", (response) => {
          const request = response.request();
          if (
            new URL(response.url()).origin === new URL(baseURL!).origin &&
            response.status() >= 400 &&
            request.resourceType() !== "document"
          ) {
            failedFiles.push(`${response.status()} ${response.url()}`);
          }
        });

        await test.step("answers with its status and a policy of hashes only", async () => {
          const response = await page.goto(path);
          expect(response?.status()).toBe(path === NOT_FOUND_PATH ? 404 : 200);
          expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'sha256-[^;]*;/);
          expect(response?.headers()["content-security-policy"]).not.toMatch(/nonce|unsafe|inline-speculation-rules/);
        });
        if (viewport === DESKTOP) {
          await test.step("its speculation rules name our pages' links and no other; nothing left the machine", async () => {
            expect(await page.evaluate(() => HTMLScriptElement.supports("speculationrules"))).toBe(true);
            const links = await page.evaluate(linksTheRulesName);
            expect(links.length).toBeGreaterThan(5);
            for (const { href, tab, named } of links) {
              // The events tabs switch in place: never loaded ahead.
              const ours = href.startsWith("/") && PAGE_PATHS.test(href) && !tab;
              expect(named, `${href} on ${path}`).toBe(ours);
            }
            expect(blockedRequests).toEqual([]);
          });
        }
        await waitForHydration(page);

        await test.step("one h1, the first heading; the drawer named without a heading of its own", async () => {
          await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
          expect(
            await page
              .locator("h1, h2, h3, h4, h5, h6, [role=heading]")
              .first()
              .evaluate((el) => el.tagName),
          ).toBe("H1");
          await expect(page.getByRole("dialog", { name: "Menu", includeHidden: true })).toHaveCount(1);
        });

        await test.step("no axe violation (WCAG 2.2 AA)", () => expectNoAxeViolations(page, testInfo, label));

        if (viewport === DESKTOP) {
          await test.step("every Tab stop is visibly focused and not hidden", async () => {
            const stops = await tabThroughPage(page);
            expect(stops.length).toBeGreaterThan(8);
            expect(describeProblems(stops)).toEqual([]);
          });
          await test.step(`the main navigation marks ${navLabel ?? "no link"} as current, in bold`, async () => {
            const nav = page.getByRole("navigation", { name: "Main" });
            await expect(nav).toBeVisible();
            await expectCurrentLink(nav, navLabel);
          });
          await test.step('every link that opens a new tab has rel="noopener noreferrer"', () => expectSafeNewTabs(page));
        } else {
          // The drawer's links exist only while it is open.
          await page.getByRole("button", { name: "Open menu" }).click();
          const drawer = page.getByRole("dialog", { name: "Menu" });
          await expect(drawer).toBeVisible();
          await test.step(`the drawer marks ${navLabel ?? "no link"} as current, in bold`, () =>
            expectCurrentLink(drawer.getByRole("navigation", { name: "Main" }), navLabel));
          await test.step('every link that opens a new tab has rel="noopener noreferrer", the drawer\'s too', () =>
            expectSafeNewTabs(page));
          await page.keyboard.press("Escape");
          await expect(drawer).toBeHidden();
        }

        await test.step("scrolled to the end: nothing sideways, every file and image loaded", async () => {
          await scrollToBottom(page);
          await waitForQuietNetwork(page);
          await expect(page.getByRole("contentinfo")).toBeInViewport();
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
          const broken = await page
            .locator("img")
            .evaluateAll((imgs) =>
              (imgs as HTMLImageElement[]).filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.currentSrc || img.src),
            );
          expect(broken).toEqual([]);
          expect(failedFiles).toEqual([]);
        });

        if (viewport === DESKTOP) {
          await test.step(`fits every width from ${WIDTHS[0]} to ${WIDTHS.at(-1)} px`, async () => {
            expect(report(await sweep(page, WIDTHS))).toEqual([]);
            await page.setViewportSize(DESKTOP);
          });
        }

        if (viewport === DESKTOP) {
          await test.step("a footer link leads to the next page, within the policy", async () => {
            // From the events to About; from any other page to the events, whose list is route data. Once, at the width
            // where the page is swept: the footer's links are the same at every width.
            const toEvents = !path.startsWith("/events");
            const target = toEvents
              ? { name: "Events", url: /\/events$/, h1: "Member Events" }
              : { name: "About Us", url: /\/about$/, h1: "Run by founders, for founders" };
            await page.getByRole("navigation", { name: "Quick Links" }).getByRole("link", { name: target.name, exact: true }).click();
            await expect(page).toHaveURL(target.url);
            await expect(page.getByRole("heading", { level: 1 })).toHaveText(target.h1);
            if (toEvents) await expect(page.locator('main a[href^="/events/"]:visible').first()).toBeVisible();
          });
        }

        await test.step("no CSP violation, no console error or warning", async () => {
          // Late requests (and their reports) have arrived once the network is quiet and the page settled.
          await waitForQuietNetwork(page);
          await pageSettled(page);
          expectNoPolicyViolations(policy);
          expect(consoleIssues, formatIssues(consoleIssues)).toEqual([]);
        });
      });
    }
  });
}
