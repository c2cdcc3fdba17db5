import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { ShareCard } from "./share-card.server";
import { workerDrawer } from "./share-image-drawer.server";

// A stand-in drawing worker, a real process: its "PNG" is the card's title; the title "crash"
// makes it exit as a worker that fails would.
const directory = mkdtempSync(join(tmpdir(), "drawer-"));
const STAND_IN = join(directory, "stand-in.cjs");
writeFileSync(
  STAND_IN,
  `process.on("disconnect", () => process.exit(0));
process.on("message", ({ id, card }) => {
  if (card.title === "crash") process.exit(3);
  process.send({ id, png: new Uint8Array(Buffer.from(card.title)), missing: [], ms: 1, pid: process.pid });
});`,
);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const card = (title: string): ShareCard => ({
  title,
  badge: "",
  members: false,
  when: "",
  where: "",
  site: { name: "Founders Circle", shortName: "FC", host: "example.org" },
});

let workers: ChildProcess[] = [];
afterEach(() => {
  for (const worker of workers) worker.kill("SIGKILL");
  workers = [];
});

/** Resolves when the worker has exited (at once if it already has). */
const exited = (worker: ChildProcess) =>
  worker.exitCode !== null || worker.signalCode !== null ? Promise.resolve() : once(worker, "exit").then(() => undefined);

/** A drawer over stand-in workers, each kept for the test to watch; `lines` gets its debug lines. */
function drawer(idleMs: number, onLine?: (message: string) => void) {
  const lines: string[] = [];
  const draw = workerDrawer({
    idleMs,
    startWorker: () => {
      const worker = fork(STAND_IN, [], { serialization: "advanced", stdio: ["ignore", "ignore", "ignore", "ipc"] });
      workers.push(worker);
      return worker;
    },
    log: (_fields, message) => {
      lines.push(message);
      onLine?.(message);
    },
  });
  return { draw, lines };
}

describe("workerDrawer: the worker is held only while it draws", () => {
  it("ends the worker when it has drawn nothing for the idle time, and the next card starts a fresh one", async () => {
    const { draw, lines } = drawer(10);
    const first = await draw(card("first"));
    expect(first.png.toString()).toBe("first");
    await exited(workers[0]!);
    const second = await draw(card("second"));
    expect(second.png.toString()).toBe("second");
    expect(workers).toHaveLength(2);
    expect(second.pid).not.toBe(first.pid);
    expect(lines.slice(0, 3)).toEqual(["share card worker started", "share card worker ending", "share card worker started"]);
  });

  it("keeps one worker for cards asked for within the idle time", async () => {
    const { draw } = drawer(60_000);
    const a = await draw(card("a"));
    const b = await draw(card("b"));
    expect(b.pid).toBe(a.pid);
    expect(workers).toHaveLength(1);
  });

  it("never ends a worker with cards pending: cards in flight together are all drawn by it", async () => {
    const { draw } = drawer(0);
    const drawn = await Promise.all(["a", "b", "c", "d"].map((title) => draw(card(title))));
    expect(drawn.map((d) => d.png.toString())).toEqual(["a", "b", "c", "d"]);
    expect(new Set(drawn.map((d) => d.pid)).size).toBe(1);
    await exited(workers[0]!);
    expect(workers).toHaveLength(1);
  });

  it("sends a card asked for while the worker is ending to a fresh worker", async () => {
    let during: Promise<unknown> | undefined;
    const { draw } = drawer(0, (message) => {
      if (message === "share card worker ending" && !during) during = draw(card("during"));
    });
    const before = await draw(card("before"));
    await exited(workers[0]!);
    const drawn = (await during) as Awaited<ReturnType<typeof draw>>;
    expect(drawn.png.toString()).toBe("during");
    expect(drawn.pid).not.toBe(before.pid);
  });

  it("fails the cards of a worker that stops on its own with an error, and draws the next card in a fresh one", async () => {
    const { draw } = drawer(60_000);
    await expect(draw(card("crash"))).rejects.toThrow("the share card worker stopped (exit code 3)");
    expect((await draw(card("after"))).png.toString()).toBe("after");
    expect(workers).toHaveLength(2);
  });
});
