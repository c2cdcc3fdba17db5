import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { childWorker } from "./child-worker.server";

// A stand-in worker, a real process: it answers each request with its text and pid, first passing
// a note (a message that answers nothing) with the request's id; "hang" it never answers.
const directory = mkdtempSync(join(tmpdir(), "child-worker-"));
const STAND_IN = join(directory, "stand-in.cjs");
writeFileSync(
  STAND_IN,
  `process.on("disconnect", () => process.exit(0));
process.on("message", ({ id, text }) => {
  process.send({ id, note: "before " + text });
  if (text !== "hang") process.send({ id, text, pid: process.pid });
});`,
);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

type Request = { id: number; text: string };
type Message = { id: number; note: string } | { id: number; text: string; pid: number };

let workers: ChildProcess[] = [];
afterEach(() => {
  for (const worker of workers) worker.kill("SIGKILL");
  workers = [];
});

function standIn(timeoutMs: number, notes: string[] = []) {
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
    const ask = standIn(2_000);
    const first = await ask("first");
    const after = await ask("hang").then(
      () => expect.unreachable("a request that is never answered resolved"),
      (error: Error) => {
        expect(error.message).toBe("the stand-in took too long");
        return ask("after");
      },
    );
    expect(after).toMatchObject({ text: "after" });
    expect(workers).toHaveLength(2);
    expect(workers[0]!.signalCode).toBe("SIGKILL");
    expect("pid" in after && "pid" in first && after.pid !== first.pid).toBe(true);
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
});
