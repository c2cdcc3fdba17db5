// The run's shared server (tests/setup/shared-server.ts) as a test file sees it: the default
// configuration with the bundled sample calendar and a public SITE_URL, rate limits lifted. It
// serves every file that uses it, possibly at the same time: use it to read, never to count
// renders or reads, and read its log only for lines of your own requests.
import { readFileSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { logCaughtUp, STDERR_FILE, STDOUT_FILE, type RunningServer } from "./start-server";

export type SharedServerInfo = { url: string; pid: number; logDir: string };

/** The shared server; its `stop` does nothing (the run stops it). */
export function sharedServer(): RunningServer {
  const info = inject("sharedServer");
  if (!info) throw new Error("no shared server: there is no build (run `npm run build`, or the tests without SKIP_BUILD=1)");
  const read = (file: string) => {
    try {
      return readFileSync(path.join(info.logDir, file), "utf8");
    } catch {
      return ""; // nothing written yet
    }
  };
  return {
    url: info.url,
    pid: info.pid,
    alive() {
      try {
        process.kill(info.pid, 0);
        return true;
      } catch {
        return false;
      }
    },
    output: () => read(STDOUT_FILE) + read(STDERR_FILE),
    stderr: () => read(STDERR_FILE),
    logCaughtUp: () => logCaughtUp(info.url, () => read(STDOUT_FILE)),
    stop: async () => {},
  };
}
