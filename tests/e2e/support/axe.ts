import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";

/** WCAG 2.2 AA, with every earlier level it includes. */
export const WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;
type Violation = AxeResults["violations"][number];

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
  const results = await new AxeBuilder({ page })
    .withTags(WCAG_22_AA)
    // Full detail only for violations: it makes the scan faster.
    .options({ resultTypes: ["violations"] })
    .analyze();
  if (results.violations.length > 0) {
    await testInfo.attach(`axe-${label}`, { body: JSON.stringify(results.violations, null, 2), contentType: "application/json" });
    throw new Error(
      `axe found ${results.violations.length} WCAG 2.2 AA violation(s) on ${label}:\n${formatViolations(results.violations)}`,
    );
  }
  // A scan that checked nothing would pass vacuously.
  if (results.passes.length === 0) throw new Error(`axe checked nothing on ${label}`);
}
