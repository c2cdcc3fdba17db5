// The share cards' drawing worker, held only while it draws. Its fonts, emoji and renderer weigh
// about 100 MB; cards are drawn in bursts (the soonest events' cards after a calendar read, a few
// crawlers after a link is shared), so the worker ends when it has drawn nothing for a while and
// the next card starts a fresh one (child-worker.server.ts: a card asked for while a worker ends
// goes to a new one; a worker that stops on its own fails its pending cards with an error).
// The worker is a child process, not a thread: a worker thread that ended left 40 to 70 MB behind
// in the server's allocators (resvg's and glibc's arenas), where a process's memory all goes back.
import type { ChildProcess } from "node:child_process";
import { workerEnvironment } from "~/env.server";
import type { Scrub } from "~/logger.server";
import { PRODUCTION_TIMINGS } from "~/timings.server";
import { childWorker, forkWorker } from "./child-worker.server";
import type { ShareCard } from "./share-card.server";
import type { DrawRequest, DrawResponse } from "./share-image-worker.server";

/**
 * resvg's allocator (mimalloc) keeps what it frees for later by default: told to give it back at
 * once, the drawing process holds about 160 MB after 31 cards instead of about 200 (the server's
 * environment overrides these).
 */
const RESVG_ALLOCATOR = { MIMALLOC_PURGE_DELAY: "0", MIMALLOC_ARENA_EAGER_COMMIT: "0", MIMALLOC_PURGE_DECOMMITS: "1" };

/**
 * What the drawing process is started with: Node's own settings (NODE_ENV picks React's production
 * runtime) and the allocator's, nothing else. It lays out text anyone can put in an event, so it
 * holds no secret, not even the calendar's key.
 */
const WORKER_ENV = ["NODE_ENV", "NODE_OPTIONS", "TZ", /^MIMALLOC_/] as const;

/** A drawn card, and the id of the process that drew it. */
export type Drawn = { png: Buffer; missing: string[]; ms: number; pid: number };
export type DrawCard = (card: ShareCard) => Promise<Drawn>;

export type DrawerOptions = {
  /**
   * How long the worker stays after its last card (the timings' shareCardWorkerIdleMs): longer than
   * the gaps inside a burst (cards ahead are drawn back to back; the crawlers that fetch a shared
   * link's card come within seconds of each other), short enough that a server at rest holds no
   * renderer: a fresh worker's first card costs about half a second more than a warm one's.
   */
  idleMs?: number;
  /** A drawing that takes longer is abandoned, and the worker ended (the timings' drawTimeoutMs). */
  drawTimeoutMs?: number;
  /** Told when a worker starts and when it ends (debug lines). */
  log?: (fields: object, message: string) => void;
} & (
  | {
      /** The built share-image-worker module is started, its stderr passed through the site's scrubber (server/site.ts). */
      scrub: Scrub;
      startWorker?: never;
    }
  | {
      /** Starts a drawing worker, with an IPC channel (a test's own). */
      startWorker: () => ChildProcess;
      scrub?: never;
    }
);

/**
 * Draws in a worker when the server runs built; in development and unit tests (TypeScript that
 * Node cannot start as a worker) on this thread, with resvg's rasterising still on the thread pool.
 */
export function workerDrawer(options: DrawerOptions): DrawCard {
  const { idleMs = PRODUCTION_TIMINGS.shareCardWorkerIdleMs, drawTimeoutMs = PRODUCTION_TIMINGS.drawTimeoutMs, log } = options;
  const limits = { idleMs, drawTimeoutMs };
  if (options.startWorker) return drawIn(options.startWorker, limits, log);
  const { scrub } = options;
  const drawer = import("./share-image-worker.server").then((module): DrawCard => {
    if (module.canRunAsWorker) {
      const env = () => ({ ...RESVG_ALLOCATOR, ...workerEnvironment(WORKER_ENV) });
      const start = () => forkWorker(module.workerModuleUrl, module.WORKER_FLAG, { env: env(), scrub });
      return drawIn(start, limits, log);
    }
    return async (card) => {
      const started = performance.now();
      return { ...(await module.drawShareCard(card)), ms: performance.now() - started, pid: process.pid };
    };
  });
  return async (card) => (await drawer)(card);
}

/** Draws in worker processes `start` starts. */
function drawIn(
  start: () => ChildProcess,
  { idleMs, drawTimeoutMs }: { idleMs: number; drawTimeoutMs: number },
  log: DrawerOptions["log"],
): DrawCard {
  const worker = childWorker<DrawRequest, DrawResponse>({
    start,
    name: "share card worker",
    idleMs,
    timeoutMs: drawTimeoutMs,
    timeoutMessage: `drawing a share card took over ${drawTimeoutMs} ms`,
    ...(log ? { log } : {}),
  });
  return async (card) => {
    const response = await worker.ask((id) => ({ id, card }));
    if ("error" in response) throw new Error(response.error);
    const png = Buffer.from(response.png.buffer, response.png.byteOffset, response.png.byteLength);
    return { png, missing: response.missing, ms: response.ms, pid: response.pid };
  };
}
