import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Timings } from "~/timings.server";
import { suiteClock, type TestClock } from "./clock";
import { LIFTED_RATE_LIMITS } from "./environments";
import { timingsVariable } from "./timings";
import { waitUntil } from "./wait";

export type RunningServer = {
  url: string;
  /** The server process's id (for /proc/<pid>/status and liveness checks). */
  pid: number;
  /** The process has not exited. */
  alive: () => boolean;
  /** Everything the process wrote so far (stdout and stderr). */
  output: () => string;
  stderr: () => string;
  /** Resolves once every line the server wrote for earlier requests has reached output() (no sleeping). */
  logCaughtUp: () => Promise<void>;
  stop: () => Promise<void>;
};

export type StartOptions = {
  /** Another checkout's build (tests/integration/content-build.test.ts). */
  cwd?: string;
  /** The server's timers (TIMINGS): usually FAST_TIMINGS (tests/support/timings.ts); production's where unset. */
  timings?: Partial<Timings>;
  /** Also writes its stdout and stderr to files in this folder (the shared server: tests/setup/shared-server.ts). */
  logDir?: string;
  /** The moment the server runs at (tests/support/clock.ts): the run's own (suiteClock) unless the test names one. */
  clock?: TestClock;
};

/**
 * Starts the built production server (server.js) on a free loopback port.
 * Tests must have the build (tests/setup/build-once.ts runs it once per run).
 */
export async function startServer(
  env: Record<string, string | undefined> = {},
  { cwd = process.cwd(), timings, logDir, clock = suiteClock() }: StartOptions = {},
): Promise<RunningServer> {
  // Each server keeps its calendar's saved copy in a directory of its own, unless the test names the
  // file (by either name: EVENTS_SNAPSHOT_PATH is its old one; "" for the default file).
  const savedCopyDir =
    env.EVENTS_SAVED_COPY_PATH === undefined && env.EVENTS_SNAPSHOT_PATH === undefined
      ? mkdtempSync(path.join(tmpdir(), "fc-saved-copy-"))
      : undefined;
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    cwd,
    env: {
      ...process.env,
      ...clock.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      ...LIFTED_RATE_LIMITS,
      ...(savedCopyDir ? { EVENTS_SAVED_COPY_PATH: path.join(savedCopyDir, "events.json") } : {}),
      // Many tests start servers at once on a small machine: share cards are drawn only when asked
      // for, unless a test sets it (tests/integration/share-cards.test.ts).
      SHARE_CARDS_AHEAD: "0",
      // The live site, whatever the machine says (Render sets IS_PULL_REQUEST on its preview instances), unless a test sets it.
      IS_PULL_REQUEST: "",
      ...(timings ? { TIMINGS: timingsVariable(timings) } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (savedCopyDir) child.once("exit", () => rmSync(savedCopyDir, { recursive: true, force: true }));
  running.add(child);
  child.once("exit", () => running.delete(child));
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
  if (logDir) {
    child.stdout?.on("data", (chunk: Buffer) => appendFileSync(path.join(logDir, STDOUT_FILE), chunk));
    child.stderr?.on("data", (chunk: Buffer) => appendFileSync(path.join(logDir, STDERR_FILE), chunk));
  }

  const port = await new Promise<number>((resolve, reject) => {
    // A start takes a second or two on a quiet machine, many more on a shared busy one; a server
    // that neither listens nor exits fails here, with its output, before the hook's limit.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${out}\n${err}`));
    }, START_LIMIT_MS);
    const check = () => {
      const match = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}\n${err}`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    alive: () => child.exitCode === null && child.signalCode === null,
    output: () => out + err,
    stderr: () => err,
    logCaughtUp: () => logCaughtUp(`http://127.0.0.1:${port}`, () => out),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/**
 * The servers this process started and that still run. A test that timed out may go on to start
 * one after its file's hooks have stopped the others: whatever is left ends with the test process.
 */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * How long a server may take to start: 1–2 s on a quiet machine, over 25 s seen when several start at
 * once on a shared busy one (below vitest.config.ts's hook limit, so its output is shown).
 */
export const START_LIMIT_MS = 60_000;

/** Where a server started with `logDir` writes its output. */
export const STDOUT_FILE = "stdout.log";
export const STDERR_FILE = "stderr.log";

/** Resolves once every line the server at `url` wrote for earlier requests is in `stdout()`. */
export async function logCaughtUp(url: string, stdout: () => string): Promise<void> {
  // A marked request's own line comes after every earlier one: the log is one ordered stream.
  const marker = `caught-up-${randomUUID()}`;
  await fetch(`${url}/__caught-up`, { headers: { "x-request-id": marker } }).then((res) => res.arrayBuffer());
  // Lines reach us within milliseconds; the limit only turns a stuck log into this message, not the test's timeout.
  await waitUntil(() => stdout().includes(marker), {
    timeoutMs: 15_000,
    everyMs: 20,
    message: "the server's log did not catch up within 15 s",
  });
}

/**
 * Resolves once the server at `url` has read its calendar (its /readyz says "fresh"): a first read of a
 * large calendar, or any on a busy machine, may outlast the events page's own wait, which then answers
 * the loading state. The limit only turns a read that never ends into this message.
 */
export async function calendarRead(url: string, limitMs = START_LIMIT_MS): Promise<void> {
  let events: { state?: string } | undefined;
  await waitUntil(
    async () => {
      events = ((await (await fetch(`${url}/readyz`)).json()) as { events?: { state?: string } }).events;
      return events?.state === "fresh";
    },
    { timeoutMs: limitMs, message: () => `the server's calendar was not read within ${limitMs} ms (${JSON.stringify(events)})` },
  );
}

/** The URLs of the answers the server rendered so far, in order (its "rendered an answer" lines). */
export function renderedUrls(server: Pick<RunningServer, "output">): string[] {
  return jsonLines<{ msg?: string; url?: string }>(server).flatMap((line) =>
    line.msg === "rendered an answer" && line.url ? [line.url] : [],
  );
}

/** The JSON lines the server wrote to stdout so far (the start-up line is plain text), parsed. */
export function jsonLines<T>(server: Pick<RunningServer, "output">): T[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as T);
}

/** Runs server.js expecting it to refuse to start; resolves with its exit code and stderr. */
export async function startExpectingFailure(env: Record<string, string | undefined>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // A server that starts instead of refusing is ended (the test then fails on its exit code).
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  const [code] = (await once(child, "exit")) as [number | null];
  clearTimeout(timer);
  return { code, stderr };
}
