import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { childWorker, forkWorker } from "./child-worker.server";

// A stand-in worker, a real process: it answers each request with its text and pid, first passing
// a note (a message that answers nothing) with the request's id; "hang" it never answers; "steps" it
// answers when told to ({ finish }), reporting progress each time it is told ({ step }); "env" it
// answers with its environment's names; "stderr" it answers after writing a secret to stderr in two
// pieces; "cut" it closes its channel and lives on.
const directory = mkdtempSync(join(tmpdir(), "child-worker-"));
const STAND_IN = join(directory, "stand-in.cjs");
writeFileSync(
  STAND_IN,
  `const exit = () => process.exit(0);
process.on("disconnect", exit);
let steps;
process.on("message", (message) => {
  if (message.step) return process.send({ id: steps, progress: true });
  if (message.finish) return process.send({ id: steps, text: "steps", pid: process.pid });
  const { id, text } = message;
  process.send({ id, note: "before " + text });
  if (text === "hang") return;
  if (text === "steps") return void (steps = id);
  if (text === "env") return process.send({ id, text: Object.keys(process.env).sort().join(","), pid: process.pid });
  if (text === "stderr")
    return process.stderr.write("a line with the s3", () =>
      process.stderr.write("cret-value in it\\nand key=AIzaQUERY after\\n", () => process.send({ id, text, pid: process.pid })),
    );
  if (text === "cut") {
    process.off("disconnect", exit);
    setInterval(() => {}, 60_000);
    return process.disconnect();
  }
  process.send({ id, text, pid: process.pid });
});`,
);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

type Request = { id: number; text: string };
type Message = { id: number; note: string } | { id: number; progress: true } | { id: number; text: string; pid: number };

let workers: ChildProcess[] = [];
afterEach(() => {
  for (const worker of workers) worker.kill("SIGKILL");
  workers = [];
});

function standIn(timeoutMs: number, notes: string[] = [], progressed: (id: number) => void = () => {}) {
  const worker = childWorker<Request, Message>({
    start: () => {
      const started = fork(STAND_IN, [], { serialization: "advanced", stdio: ["ignore", "ignore", "ignore", "ipc"] });
      workers.push(started);
      return started;
    },
    name: "stand-in worker",
    idleMs: 60_000,
    timeoutMs,
    timeoutMessage: "the stand-in took too long",
    aside: (message) => "note" in message && notes.push(message.note) > 0,
    progress: (message) => "progress" in message && (progressed(message.id), true),
  });
  return (text: string) => worker.ask((id) => ({ id, text }));
}

describe("childWorker", () => {
  it("passes a message that answers nothing to `aside`, and resolves with the one that answers", async () => {
    const notes: string[] = [];
    const ask = standIn(60_000, notes);
    expect(await ask("a")).toMatchObject({ text: "a" });
    expect(notes).toEqual(["before a"]);
  });

  it("fails a request that overruns its time and kills its worker; a request asked meanwhile goes to a fresh one, which its exit does not fail", async () => {
    // The test passes the time (fake timers) once the worker holds the request: a fresh process's
    // start takes what it takes on a busy machine, and no deadline runs out under it.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const notes: string[] = [];
      const ask = standIn(2_000, notes);
      const first = await ask("first");
      const hung = ask("hang").then(
        () => expect.unreachable("a request that is never answered resolved"),
        (error: Error) => error,
      );
      // Not a poll: the request's deadline must not move before the test moves the clock. setImmediate is not faked.
      while (!notes.includes("before hang")) await new Promise((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(1_999);
      expect(workers[0]!.killed).toBe(false);
      vi.advanceTimersByTime(1);
      expect((await hung).message).toBe("the stand-in took too long");
      const after = await ask("after");
      expect(after).toMatchObject({ text: "after" });
      expect(workers).toHaveLength(2);
      if (workers[0]!.exitCode === null && workers[0]!.signalCode === null) await once(workers[0]!, "exit");
      expect(workers[0]!.signalCode).toBe("SIGKILL");
      expect("pid" in after && "pid" in first && after.pid !== first.pid).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("fails the requests of a worker that stops on its own, and starts a fresh one for the next", async () => {
    const ask = standIn(60_000);
    const pending = [ask("hang"), ask("hang")];
    await ask("answered");
    workers[0]!.kill("SIGTERM");
    for (const request of pending) await expect(request).rejects.toThrow("the stand-in worker stopped (signal SIGTERM)");
    expect(await ask("next")).toMatchObject({ text: "next" });
    expect(workers).toHaveLength(2);
  });

  it("gives a request that reports progress its whole time again at each report; without one, it fails", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let reported: () => void = () => {};
      const ask = standIn(1_000, [], () => reported());
      const steps = ask("steps");
      // expect.poll keeps to real time, fake timers or not: a child process starting takes well under 1 s quiet.
      await expect.poll(() => workers.length, { interval: 5, timeout: 10_000 }).toBe(1);
      for (let step = 0; step < 3; step++) {
        vi.advanceTimersByTime(900);
        const heard = new Promise<void>((resolve) => (reported = resolve));
        workers[0]!.send({ step: true });
        await heard;
      }
      // 2.7 s of a 1 s deadline have passed, with a report before each second was up: still going.
      workers[0]!.send({ finish: true });
      expect(await steps).toMatchObject({ text: "steps" });
      const quiet = ask("steps");
      vi.advanceTimersByTime(1_000);
      await expect(quiet).rejects.toThrow("the stand-in took too long");
    } finally {
      vi.useRealTimers();
    }
  });

  it("kills a worker that reports an error (its channel closed under it), failing its requests with that error", async () => {
    const ask = standIn(60_000);
    const cut = ask("cut");
    await expect.poll(() => workers[0]?.connected, { interval: 5, timeout: 10_000 }).toBe(false); // a child process ending: well under 1 s quiet
    const after = ask("after");
    await expect(after).rejects.toThrow(/channel closed/i);
    await expect(cut).rejects.toThrow(/channel closed/i);
    await once(workers[0]!, "exit");
    expect(workers[0]!.signalCode).toBe("SIGKILL");
    // The next request goes to a fresh worker.
    expect(await ask("next")).toMatchObject({ text: "next" });
    expect(workers).toHaveLength(2);
  });
});

describe("forkWorker", () => {
  function start(env: NodeJS.ProcessEnv, stderr: string[]) {
    const collect = new Writable({ write: (chunk: Buffer, _encoding, done) => (stderr.push(chunk.toString()), done()) });
    const scrub = (text: string) => text.replaceAll("s3cret-value", "[redacted]").replace(/key=\w+/g, "key=[redacted]");
    const worker = childWorker<Request, Message>({
      start: () => {
        const started = forkWorker(pathToFileURL(STAND_IN).href, "--stand-in-worker", { env, scrub, stderr: collect });
        workers.push(started);
        return started;
      },
      name: "stand-in worker",
      idleMs: 60_000,
      timeoutMs: 60_000,
      timeoutMessage: "the stand-in took too long",
      aside: (message) => "note" in message,
    });
    return (text: string) => worker.ask((id) => ({ id, text }));
  }

  it("starts the worker with the environment given and nothing else of the server's", async () => {
    const ask = start({ ONLY_THIS: "1", NODE_ENV: "production" }, []);
    const answer = await ask("env");
    expect("text" in answer && answer.text.split(",")).toEqual(["NODE_ENV", "ONLY_THIS"]);
  });

  it("passes what the worker writes to stderr through the scrubber, whole lines at a time", async () => {
    const stderr: string[] = [];
    const ask = start({}, stderr);
    await ask("stderr");
    await expect.poll(() => stderr.join(""), { interval: 5, timeout: 10_000 }).toMatch(/after\n$/); // a child process starting and writing: well under 1 s quiet
    expect(stderr.join("")).toBe("a line with the [redacted] in it\nand key=[redacted] after\n");
  });
});
