import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page, TestInfo } from "@playwright/test";
import type * as Axe from "axe-core";
import type { AxeResults, Result, RunOptions } from "axe-core";
import { DESKTOP, PHONE } from "../fixtures";

/** WCAG 2.2 AA, with every earlier level it includes. */
export const WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

// axe-core itself, not @axe-core/playwright: its AxeBuilder injects the script twice per scan and finishes
// each one in a new blank page (about 2/3 of a scan's time, 4-8 s a test). Here it is injected once per
// document and run in place, as many times as the test asks.
const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

type Violation = Result;

/** One readable block per violation: rule, impact, what is wrong, and where. */
export function formatViolations(violations: Violation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .map((node) => {
          const summary = (node.failureSummary ?? "").replace(/\s*\n\s*/g, " ").trim();
          return `    - ${node.target.join(" > ")}\n      ${summary}`;
        })
        .join("\n");
      return `  [${v.impact ?? "unknown"}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}`;
    })
    .join("\n");
}

/** Runs in the page: axe on the document as it is now. */
async function runAxe(tags: string[]): Promise<AxeResults> {
  const axe = (window as unknown as { axe: typeof Axe }).axe;
  const options: RunOptions = {
    // The default rules (best practices included) and every rule of WCAG 2.2 AA, target-size too (off by
    // default); experimental ones neither adds.
    rules: Object.fromEntries(
      axe
        .getRules(tags)
        .filter((rule) => !rule.tags.includes("experimental"))
        .map((rule) => [rule.ruleId, { enabled: true }]),
    ),
    // Full detail only for violations: it makes the scan faster.
    resultTypes: ["violations"],
    // The only frame a page has is Google's calendar, which is not ours and which the tests block.
    iframes: false,
  };
  return axe.run(document, options);
}

/** Runs axe-core on the page as it is now and throws, listing the violations, if there are any. */
export async function expectNoAxeViolations(page: Page, testInfo: TestInfo, label: string): Promise<void> {
  // Scan what the visitor ends up seeing, not a frame of a slide-in (spinners never end: skip those).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // Once per document (page.evaluate is not bound by the page's Content-Security-Policy).
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(runAxe, WCAG_22_AA);
  if (results.violations.length > 0) {
    await testInfo.attach(`axe-${label}`, { body: JSON.stringify(results.violations, null, 2), contentType: "application/json" });
    throw new Error(
      `axe found ${results.violations.length} WCAG 2.2 AA violation(s) on ${label}:\n${formatViolations(results.violations)}`,
    );
  }
  // A scan that checked nothing would pass vacuously.
  if (results.passes.length === 0) throw new Error(`axe checked nothing on ${label}`);
}

/** Scans at phone width, then (same page, resized) at desktop width. Loading once keeps the gate fast. */
export async function scanAtBothWidths(page: Page, testInfo: TestInfo, label: string): Promise<void> {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page, testInfo, `${label} at ${viewport.width} px`);
  }
}
