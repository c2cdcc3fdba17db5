import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * After Vitest's own report, one block per engine (a test file is an engine): how many flows passed
 * and failed, and for each failure its name, first error line and screenshot.
 */
export default class EngineSummary implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines = ["", "engines:"];
    for (const module of modules) {
      const engine = path.basename(module.moduleId).replace(/\.test\.ts$/, "");
      const failures: string[] = [];
      let passed = 0;
      let skipped = 0;
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === "passed") passed++;
        else if (result.state === "failed") {
          const first = result.errors[0]?.message.split("\n")[0] ?? "";
          const shot = test.meta().screenshot;
          failures.push(`    ✗ ${test.fullName}\n      ${first}\n      screenshot: ${shot ?? "none"}`);
        } else skipped++;
      }
      // An engine that did not start fails its suite's beforeAll, and its tests never run.
      const suiteErrors = [...module.errors(), ...[...module.children.allSuites()].flatMap((suite) => suite.errors())];
      const notRun = suiteErrors.map((error) => `    ✗ did not run: ${error.message.split("\n")[0]}`);
      const failed = failures.length + (notRun.length > 0 && failures.length === 0 ? 1 : 0);
      lines.push(`  [${engine}] ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`, ...failures, ...notRun);
    }
    console.log(lines.join("\n"));
  }
}
