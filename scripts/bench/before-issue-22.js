// @ts-check
// The site as it was before issue 22 (speculation rules, view transitions), built and served beside
// ours: a browser without speculation rules must be no slower than it was, and the issue's own
// figures came from another machine on another day, so the bound is measured in the same run.
// Its files come from git (`git archive`, no worktree left behind) and it uses our node_modules
// (its dependencies are a subset of ours).
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { killOnExit } from "./cleanup.js";
import { startProductionServer } from "./server.js";

/** The last commit before issue 22's first (8b6bdcf, the speculation rules). */
export const BEFORE_ISSUE_22 = "178a885";

/**
 * Builds and starts the site at BEFORE_ISSUE_22, or says why it cannot (no git, a shallow clone, a failed build).
 * @param {string} logDir
 * @returns {Promise<{ origin: string, stop: () => Promise<void> } | { skipped: string }>}
 */
export async function startBeforeIssue22(logDir) {
  const dir = mkdtempSync(join(tmpdir(), "bench-before-issue-22-"));
  const forget = killOnExit(() => rmSync(dir, { recursive: true, force: true }));
  const remove = () => {
    rmSync(dir, { recursive: true, force: true });
    forget();
  };
  try {
    build(dir, join(logDir, "before-issue-22-build.log"));
    const server = await startProductionServer({ logFile: join(logDir, "before-issue-22-server.log"), cwd: dir });
    return {
      origin: server.origin,
      stop: async () => {
        await server.stop();
        remove();
      },
    };
  } catch (error) {
    remove();
    return { skipped: error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error) };
  }
}

/**
 * Unpacks BEFORE_ISSUE_22 into `dir` and builds it there, its output in `log`.
 * @param {string} dir
 * @param {string} log
 */
function build(dir, log) {
  const logFd = openSync(log, "w");
  try {
    /** @type {import("node:child_process").StdioOptions} */
    const stdio = ["ignore", logFd, logFd];
    const unpacked = spawnSync("sh", ["-c", `git archive --format=tar ${BEFORE_ISSUE_22} | tar -x -C "${dir}"`], { stdio });
    if (unpacked.status !== 0) throw new Error(`git archive ${BEFORE_ISSUE_22} failed (a shallow clone?), see ${log}`);
    symlinkSync(resolve("node_modules"), join(dir, "node_modules"), "dir");
    const built = spawnSync("npm", ["run", "build"], { cwd: dir, stdio });
    if (built.status !== 0) throw new Error(`its npm run build failed, see ${log}`);
  } finally {
    closeSync(logFd);
  }
}
