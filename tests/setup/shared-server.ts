// One built server for the whole run, for the test files that only read from a server with the
// default configuration (tests/support/shared-server.ts): each of them would otherwise start its
// own, and a start (the bundle loaded, the static pages rendered, the calendar worker forked and
// the sample read) is most of what such a file costs. Tests that count renders, read the log
// line by line or change the server's state start their own.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { SHARED_SERVER_ENV } from "../support/environments";
import type { SharedServerInfo } from "../support/shared-server";
import { calendarRead, startServer } from "../support/start-server";

declare module "vitest" {
  export interface ProvidedContext {
    sharedServer: SharedServerInfo | null;
  }
}

/** Whether a file of this run may ask for the shared server: not when a few other files were named. */
async function wanted(project: TestProject): Promise<boolean> {
  // The files named on the command line: Vitest keeps them on an internal field (none: the whole run).
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (!filters?.length) return true;
  const files = await project.vitest.getRelevantTestSpecifications(filters);
  return files.some((file) => readFileSync(file.moduleId, "utf8").includes("support/shared-server"));
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Without a build (SKIP_BUILD=1 in a fresh checkout) the unit tests still run; a file that asks
  // for the shared server then says why there is none.
  if (!existsSync("build/server/index.js") || !(await wanted(project))) {
    project.provide("sharedServer", null);
    return async () => {};
  }
  const logDir = mkdtempSync(path.join(tmpdir(), "fc-shared-server-"));
  const server = await startServer(SHARED_SERVER_ENV, { logDir });
  // Its first read of the sample done, so no file meets the events page's loading state.
  await calendarRead(server.url);
  project.provide("sharedServer", { url: server.url, pid: server.pid, logDir });
  return async () => {
    await server.stop();
    rmSync(logDir, { recursive: true, force: true });
  };
}
