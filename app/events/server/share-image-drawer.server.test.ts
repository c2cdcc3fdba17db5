import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import type { ShareCard } from "./share-card.server";
import { workerDrawer } from "./share-image-drawer.server";

// A stand-in drawing worker on a real thread: its "PNG" is the card's title; the title "crash"
// makes it exit as a worker that fails would.
const STAND_IN = `
const { parentPort, threadId } = require("node:worker_threads");
parentPort.on("message", ({ id, card }) => {
  if (card.title === "crash") process.exit(3);
  const png = new Uint8Array(Buffer.from(card.title));
  parentPort.postMessage({ id, png, missing: [], ms: 1, threadId }, [png.buffer]);
});`;

const card = (title: string): ShareCard => ({
  title,
  badge: "",
  members: false,
  when: "",
  where: "",
  site: { name: "Founders Circle", shortName: "FC", host: "example.org" },
});

let workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.map((w) => w.terminate()));
  workers = [];
});

/** A drawer over stand-in workers, each kept for the test to watch; `lines` gets its debug lines. */
function drawer(idleMs: number, onLine?: (message: string) => void) {
  const lines: string[] = [];
  const draw = workerDrawer({
    idleMs,
    startWorker: () => {
      const worker = new Worker(STAND_IN, { eval: true });
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
    await once(workers[0]!, "exit");
    const second = await draw(card("second"));
    expect(second.png.toString()).toBe("second");
    expect(workers).toHaveLength(2);
    expect(second.threadId).not.toBe(first.threadId);
    expect(lines.slice(0, 3)).toEqual(["share card worker started", "share card worker ending", "share card worker started"]);
  });

  it("keeps one worker for cards asked for within the idle time", async () => {
    const { draw } = drawer(60_000);
    const a = await draw(card("a"));
    const b = await draw(card("b"));
    expect(b.threadId).toBe(a.threadId);
    expect(workers).toHaveLength(1);
  });

  it("never ends a worker with cards pending: cards in flight together are all drawn by it", async () => {
    const { draw } = drawer(0);
    const drawn = await Promise.all(["a", "b", "c", "d"].map((title) => draw(card(title))));
    expect(drawn.map((d) => d.png.toString())).toEqual(["a", "b", "c", "d"]);
    expect(new Set(drawn.map((d) => d.threadId)).size).toBe(1);
    await once(workers[0]!, "exit");
    expect(workers).toHaveLength(1);
  });

  it("sends a card asked for while the worker is ending to a fresh worker", async () => {
    let during: Promise<unknown> | undefined;
    const { draw } = drawer(0, (message) => {
      if (message === "share card worker ending" && !during) during = draw(card("during"));
    });
    const before = await draw(card("before"));
    await once(workers[0]!, "exit");
    const drawn = (await during) as Awaited<ReturnType<typeof draw>>;
    expect(drawn.png.toString()).toBe("during");
    expect(drawn.threadId).not.toBe(before.threadId);
  });

  it("fails the cards of a worker that stops on its own with an error, and draws the next card in a fresh one", async () => {
    const { draw } = drawer(60_000);
    await expect(draw(card("crash"))).rejects.toThrow("the share card worker stopped (exit code 3)");
    expect((await draw(card("after"))).png.toString()).toBe("after");
    expect(workers).toHaveLength(2);
  });
});
