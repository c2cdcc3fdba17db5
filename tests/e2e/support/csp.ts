import { expect, type Page } from "@playwright/test";

/** What Chromium logs when a Content-Security-Policy (or Permissions-Policy) refuses something or is malformed. */
export const POLICY_MESSAGE = /Content[- ]Security[- ]Policy|Permissions[- ]Policy/i;

export type PolicyRecorder = { violations: string[]; consoleLines: string[] };

/**
 * Records what the page's policy refuses, by two detectors: the browser's `securitypolicyviolation` events in every
 * document the page loads (the listener is installed before any script runs), and its console (where Chromium also
 * reports header problems).
 */
export async function recordPolicyViolations(page: Page): Promise<PolicyRecorder> {
  const recorder: PolicyRecorder = { violations: [], consoleLines: [] };
  await page.exposeFunction("__reportCspViolation", (line: string) => void recorder.violations.push(line));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportCspViolation: (line: string) => void }).__reportCspViolation;
      void report(
        `${event.effectiveDirective} refused ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber}) on ${location.pathname}`,
      );
    });
  });
  page.on("console", (message) => {
    if (POLICY_MESSAGE.test(message.text())) recorder.consoleLines.push(`[${message.type()}] ${message.text()}`);
  });
  return recorder;
}

/** Fails, naming each, if the policy refused anything. */
export function expectNoPolicyViolations(recorder: PolicyRecorder): void {
  expect(recorder.violations, recorder.violations.join("\n")).toEqual([]);
  expect(recorder.consoleLines, recorder.consoleLines.join("\n")).toEqual([]);
}
