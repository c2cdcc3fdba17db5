// The share cards' drawing worker, held only while it draws. Its fonts, emoji and renderer weigh
// about 100 MB; cards are drawn in bursts (the soonest events' cards after a calendar read, a few
// crawlers after a link is shared), so the worker ends when it has drawn nothing for a while and
// the next card starts a fresh one. A worker is dropped (no card is sent to it again) before it is
// told to end, so a card asked for meanwhile goes to a new worker; it is only ended with no card
// pending, and a worker that stops on its own fails its pending cards with an error, never silently.
// The worker is a child process, not a thread: a worker thread that ended left 40 to 70 MB behind
// in the server's allocators (resvg's and glibc's arenas), where a process's memory all goes back.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ShareCard } from "./share-card.server";
import type { DrawRequest, DrawResponse } from "./share-image-worker.server";

/** A drawing that takes longer is abandoned, and the worker ended. */
export const DRAW_TIMEOUT_MS = 20_000;
/**
 * The worker ends this long after its last card. Longer than the gaps inside a burst (cards ahead
 * are drawn back to back; the crawlers that fetch a shared link's card come within seconds of each
 * other), short enough that a server at rest holds no renderer: a fresh worker's first card costs
 * about half a second more than a warm one's.
 */
export const WORKER_IDLE_MS = 15_000;

/**
 * resvg's allocator (mimalloc) keeps what it frees for later by default: told to give it back at
 * once, the drawing process holds about 160 MB after 31 cards instead of about 200 (the server's
 * environment overrides these).
 */
const RESVG_ALLOCATOR = { MIMALLOC_PURGE_DELAY: "0", MIMALLOC_ARENA_EAGER_COMMIT: "0", MIMALLOC_PURGE_DECOMMITS: "1" };

/** A drawn card, and the id of the process that drew it. */
export type Drawn = { png: Buffer; missing: string[]; ms: number; pid: number };
export type DrawCard = (card: ShareCard) => Promise<Drawn>;

export type DrawerOptions = {
  /** How long the worker stays after its last card (WORKER_IDLE_MS). */
  idleMs?: number;
  /** Starts a drawing worker, with an IPC channel: by default the built share-image-worker module (tests give their own). */
  startWorker?: () => ChildProcess;
  /** Told when a worker starts and when it ends (debug lines). */
  log?: (fields: object, message: string) => void;
};

type Pending = { resolve: (drawn: Drawn) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };
/** One worker and the cards sent to it: each worker answers (or fails) only its own. */
type Running = { worker: ChildProcess; pending: Map<number, Pending>; idle?: NodeJS.Timeout };

/**
 * Draws in a worker when the server runs built; in development and unit tests (TypeScript that
 * Node cannot start as a worker) on this thread, with resvg's rasterising still on the thread pool.
 */
export function workerDrawer({ idleMs = WORKER_IDLE_MS, startWorker, log }: DrawerOptions = {}): DrawCard {
  const loaded = startWorker ? undefined : import("./share-image-worker.server");
  let current: Running | undefined;
  let nextId = 0;

  function fail(running: Running, error: Error) {
    clearTimeout(running.idle);
    for (const { reject, timer } of running.pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    running.pending.clear();
  }

  /** No card goes to this worker any more; it ends (and its pending cards fail) if any are left. */
  function end(running: Running, why: string) {
    if (current === running) current = undefined;
    clearTimeout(running.idle);
    log?.({ workerPid: running.worker.pid, why }, "share card worker ending");
    running.worker.kill("SIGKILL");
  }

  function start(begin: () => ChildProcess): Running {
    const worker = begin();
    // Never what keeps the server running: shutting down ends a drawing like any other work (and
    // the worker ends when its channel closes).
    worker.unref();
    worker.channel?.unref();
    const running: Running = { worker, pending: new Map() };
    log?.({ workerPid: worker.pid }, "share card worker started");
    worker.on("message", (response: DrawResponse) => {
      const entry = running.pending.get(response.id);
      if (!entry) return;
      running.pending.delete(response.id);
      clearTimeout(entry.timer);
      if ("error" in response) entry.reject(new Error(response.error));
      else {
        const png = Buffer.from(response.png.buffer, response.png.byteOffset, response.png.byteLength);
        entry.resolve({ png, missing: response.missing, ms: response.ms, pid: response.pid });
      }
      if (running.pending.size === 0 && current === running) {
        running.idle = setTimeout(() => running.pending.size === 0 && end(running, "idle"), idleMs);
        running.idle.unref();
      }
    });
    worker.on("error", (error) => {
      if (current === running) current = undefined;
      fail(running, error);
    });
    worker.on("exit", (code, signal) => {
      if (current === running) current = undefined;
      fail(running, new Error(`the share card worker stopped (${signal ? `signal ${signal}` : `exit code ${code}`})`));
    });
    return running;
  }

  return async (card) => {
    let begin = startWorker;
    if (!begin) {
      const module = (await loaded)!;
      if (!module.canRunAsWorker) {
        const started = performance.now();
        return { ...(await module.drawShareCard(card)), ms: performance.now() - started, pid: process.pid };
      }
      const file = fileURLToPath(module.workerModuleUrl);
      // Structured clone carries the PNG's bytes as bytes; nothing of the server's argv or inspector.
      begin = () =>
        fork(file, [module.WORKER_FLAG], {
          serialization: "advanced",
          stdio: ["ignore", "ignore", "ignore", "ipc"],
          execArgv: [],
          // eslint-disable-next-line no-restricted-properties -- the environment passed on whole, not configuration read
          env: { ...RESVG_ALLOCATOR, ...process.env },
        });
    }
    current ??= start(begin);
    const running = current;
    clearTimeout(running.idle);
    const id = nextId++;
    return new Promise<Drawn>((resolve, reject) => {
      const timer = setTimeout(() => {
        running.pending.delete(id);
        reject(new Error(`drawing a share card took over ${DRAW_TIMEOUT_MS} ms`));
        end(running, "timeout");
      }, DRAW_TIMEOUT_MS);
      running.pending.set(id, { resolve, reject, timer });
      const request: DrawRequest = { id, card };
      running.worker.send(request);
    });
  };
}
