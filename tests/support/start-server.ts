import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

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

/**
 * Starts the built production server (server.js) on a free loopback port.
 * Tests must have the build (tests/setup/build-once.ts runs it once per run); `cwd` runs another
 * checkout's build (tests/integration/content-build.test.ts).
 */
export async function startServer(env: Record<string, string | undefined> = {}, { cwd = process.cwd() } = {}): Promise<RunningServer> {
  // Each server keeps its calendar snapshot in a directory of its own, unless the test shares one.
  const snapshotDir = env.EVENTS_SNAPSHOT_PATH === undefined ? mkdtempSync(path.join(tmpdir(), "fc-snapshot-")) : undefined;
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    cwd,
    // Every test request comes from loopback: the rate limits are lifted unless a test sets them.
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      RATE_LIMIT_PER_MINUTE: "10000000",
      PAGE_RATE_LIMIT_PER_MINUTE: "10000000",
      SPECULATIVE_RATE_LIMIT_PER_MINUTE: "10000000",
      ...(snapshotDir ? { EVENTS_SNAPSHOT_PATH: path.join(snapshotDir, "events.json") } : {}),
      // Many tests start servers at once on a small machine: share cards are drawn only when asked
      // for, unless a test sets it (tests/integration/share-cards.test.ts).
      SHARE_CARDS_AHEAD: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (snapshotDir) child.once("exit", () => rmSync(snapshotDir, { recursive: true, force: true }));
  // Never outlives the test process: a test that times out (or fails) before stop() would leave it running.
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  child.once("exit", () => process.off("exit", orphaned));
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));

  // No deadline of its own: a start takes seconds on a quiet machine and over 15 s on a busy one; the
  // caller's test or hook timeout is the one limit.
  const port = await new Promise<number>((resolve, reject) => {
    const check = () => {
      const match = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${out}\n${err}`)));
  });

  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    alive: () => child.exitCode === null && child.signalCode === null,
    output: () => out + err,
    stderr: () => err,
    async logCaughtUp() {
      // A marked request's own line comes after every earlier one: the log is one ordered stream.
      const marker = `caught-up-${randomUUID()}`;
      await fetch(`http://127.0.0.1:${port}/__caught-up`, { headers: { "x-request-id": marker } }).then((res) => res.arrayBuffer());
      const deadline = Date.now() + 15_000;
      while (!out.includes(marker)) {
        if (Date.now() > deadline) throw new Error("the server's log did not catch up within 15 s");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** The server's variables with no calendar configured: the bundled sample. */
export const NO_SOURCE = { GOOGLE_CALENDAR_ID: "", GOOGLE_API_KEY: "", CALENDAR_ICS_URL: "", GOOGLE_CALENDAR_API_URL: "" };

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
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  const [code] = (await once(child, "exit")) as [number | null];
  clearTimeout(timer);
  return { code, stderr };
}
