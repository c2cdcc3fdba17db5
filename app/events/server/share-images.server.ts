// The events' share cards, drawn off the event loop and ahead of the link-preview crawlers:
// - one drawing worker (share-image-worker.server.ts) draws one card at a time;
// - when a calendar read brings events, the soonest upcoming ones are queued to be drawn at once
//   (drawAhead), so a crawler following a freshly shared link finds its card ready;
// - a card asked for by a request goes before every card queued ahead;
// - drawn cards are kept by what they say (share-card.server.ts), in a cache of bounded size, so
//   a new calendar version redraws only the cards whose text changed.
import { Worker } from "node:worker_threads";
import { LRUCache } from "lru-cache";
import { getPublicConfig } from "~/config.server";
import { site } from "~/content";
import { getEnv } from "~/env.server";
import { eventsForTab } from "~/events/filter";
import type { CalendarEvent } from "~/events/model";
import { getLogger } from "~/logger.server";
import { shareCardKey, shareCardOf, type ShareCard, type ShareCardSite } from "./share-card.server";
import type { DrawRequest, DrawResponse } from "./share-image-worker.server";

/** Drawn cards kept (about 40 to 80 kB each). */
export const CARD_CACHE_BYTES = 16 * 1024 * 1024;
/** A drawing that takes longer is abandoned, and the worker restarted. */
export const DRAW_TIMEOUT_MS = 20_000;

export type Drawn = { png: Buffer; missing: string[]; ms: number; threadId: number };
export type DrawCard = (card: ShareCard) => Promise<Drawn>;
type Log = Record<"debug" | "warn" | "error", (fields: object, message: string) => void>;

type Job = { card: ShareCard; urgent: boolean; done: Promise<Buffer>; resolve: (png: Buffer) => void; reject: (error: unknown) => void };

export type ShareImages = {
  /** The event's card: kept, or drawn before anything queued ahead. */
  imageFor(event: CalendarEvent): Promise<Buffer>;
  /** Queues the cards of the soonest upcoming events that are not drawn yet. */
  drawAhead(events: CalendarEvent[], now?: number): void;
  /** Resolves when nothing is queued or drawing (tests, benchmarks). */
  idle(): Promise<void>;
  /** Starts the drawing worker and has it draw one card, so the first real card is not also its first. */
  warm(): Promise<void>;
  /** Cards drawn and failed since start, waiting now, and the bytes kept (the metrics read it). */
  stats(): ShareImagesStats;
};

export type ShareImagesStats = { drawn: number; failed: number; waiting: number; keptBytes: number };

export type ShareImagesOptions = {
  draw: DrawCard;
  siteOf: () => ShareCardSite;
  log: Log;
  /** How many of the soonest upcoming events get their card drawn when the calendar is read (SHARE_CARDS_AHEAD). */
  ahead: number;
};

export function createShareImages({ draw, siteOf, log, ahead }: ShareImagesOptions): ShareImages {
  const cards = new LRUCache<string, Buffer>({ maxSize: CARD_CACHE_BYTES, sizeCalculation: (png) => png.length });
  const queue = new Map<string, Job>();
  let running = false;
  let idleWaiters: (() => void)[] = [];
  let drawnCount = 0;
  let failedCount = 0;

  function enqueue(card: ShareCard, urgent: boolean): Promise<Buffer> {
    const key = shareCardKey(card);
    const kept = cards.get(key);
    if (kept) return Promise.resolve(kept);
    let job = queue.get(key);
    if (!job) {
      let resolve!: (png: Buffer) => void;
      let reject!: (error: unknown) => void;
      const done = new Promise<Buffer>((res, rej) => ((resolve = res), (reject = rej)));
      job = { card, urgent, done, resolve, reject };
      queue.set(key, job);
    }
    job.urgent ||= urgent;
    void pump();
    return job.done;
  }

  /** Draws the queued cards one at a time: requests' first, then the others in the order queued. */
  async function pump(): Promise<void> {
    if (running) return;
    running = true;
    try {
      for (;;) {
        const next = [...queue].find(([, job]) => job.urgent) ?? queue.entries().next().value;
        if (!next) break;
        const [key, job] = next;
        try {
          const drawn = await draw(job.card);
          cards.set(key, drawn.png);
          drawnCount += 1;
          log.debug({ ms: Math.round(drawn.ms), threadId: drawn.threadId, ahead: !job.urgent }, "drew a share card");
          if (drawn.missing.length > 0)
            log.warn({ characters: drawn.missing.join(" ").slice(0, 200) }, "a share card has characters no font draws");
          job.resolve(drawn.png);
        } catch (error) {
          failedCount += 1;
          log.error({ err: error }, "a share card could not be drawn");
          job.reject(error);
        } finally {
          queue.delete(key);
        }
      }
    } finally {
      running = false;
      for (const wake of idleWaiters) wake();
      idleWaiters = [];
    }
  }

  return {
    imageFor: (event) => enqueue(shareCardOf(event, siteOf()), true),
    drawAhead(events, now = Date.now()) {
      const upcoming = eventsForTab(events, "upcoming", now).slice(0, ahead);
      const cardsOf = upcoming.map((event) => shareCardOf(event, siteOf()));
      const fresh = cardsOf.filter((card) => !cards.has(shareCardKey(card)) && !queue.has(shareCardKey(card)));
      if (fresh.length === 0) return;
      log.debug({ cards: fresh.length }, "drawing share cards ahead");
      const all = fresh.map((card) => enqueue(card, false).catch(() => undefined));
      void Promise.all(all).then(() => log.debug({ cards: fresh.length }, "drew share cards ahead"));
    },
    idle: () => (running ? new Promise<void>((resolve) => idleWaiters.push(resolve)) : Promise.resolve()),
    async warm() {
      const started = performance.now();
      const card = shareCardOf({ id: "warm-up", summary: "Founders’ evening", start: { date: "2026-01-01" } }, siteOf());
      await enqueue(card, false);
      log.debug({ ms: Math.round(performance.now() - started) }, "share card worker ready");
    },
    stats: () => ({ drawn: drawnCount, failed: failedCount, waiting: queue.size, keptBytes: cards.calculatedSize }),
  };
}

/**
 * Draws in the worker when the server runs built; in development and unit tests (TypeScript that
 * Node cannot start as a worker) on this thread, with resvg's rasterising still on the thread pool.
 */
export function workerDrawer(): DrawCard {
  const loaded = import("./share-image-worker.server");
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve: (drawn: Drawn) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();

  function failAll(error: Error) {
    for (const { reject, timer } of pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    pending.clear();
  }

  function start(module: Awaited<typeof loaded>): Worker {
    const started = new Worker(new URL(module.workerModuleUrl), { workerData: { [module.WORKER_FLAG]: true } });
    // Never what keeps the process alive: shutting down ends a drawing like any other work.
    started.unref();
    started.on("message", (response: DrawResponse) => {
      const entry = pending.get(response.id);
      if (!entry) return;
      pending.delete(response.id);
      clearTimeout(entry.timer);
      if ("error" in response) entry.reject(new Error(response.error));
      else {
        const png = Buffer.from(response.png.buffer, response.png.byteOffset, response.png.byteLength);
        entry.resolve({ png, missing: response.missing, ms: response.ms, threadId: response.threadId });
      }
    });
    started.on("error", (error) => failAll(error));
    started.on("exit", (code) => {
      if (worker === started) worker = undefined;
      failAll(new Error(`the share card worker stopped (exit code ${code})`));
    });
    return started;
  }

  return async (card) => {
    const module = await loaded;
    if (!module.canRunAsWorker) {
      const started = performance.now();
      return { ...(await module.drawShareCard(card)), ms: performance.now() - started, threadId: 0 };
    }
    worker ??= start(module);
    const current = worker;
    const id = nextId++;
    return new Promise<Drawn>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`drawing a share card took over ${DRAW_TIMEOUT_MS} ms`));
        void current.terminate();
      }, DRAW_TIMEOUT_MS);
      pending.set(id, { resolve, reject, timer });
      const request: DrawRequest = { id, card };
      current.postMessage(request);
    });
  };
}

let shared: ShareImages | undefined;

/** Start-up waits this long at most for the worker's first card; past it the worker goes on alone. */
const WARM_WAIT_MS = 5_000;

/**
 * Starts the process's drawing worker and has it draw a first card (server.js, before listening),
 * unless SHARE_CARDS_AHEAD is 0: then the worker starts with the first card asked for.
 */
export async function warmShareImages(): Promise<void> {
  if (getEnv().SHARE_CARDS_AHEAD === 0) return;
  const warm = shareImages()
    .warm()
    .catch((error: unknown) => getLogger().error({ err: error }, "the share card worker could not start"));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([warm, new Promise((resolve) => (timer = setTimeout(resolve, WARM_WAIT_MS)))]);
  clearTimeout(timer);
}

/** The process's share cards, for the image route and the events source. */
export function shareImages(): ShareImages {
  shared ??= createShareImages({
    draw: workerDrawer(),
    ahead: getEnv().SHARE_CARDS_AHEAD,
    siteOf: () => ({ name: site.name, shortName: site.shortName, host: new URL(getPublicConfig().siteUrl).host }),
    log: {
      debug: (fields, message) => getLogger().debug(fields, message),
      warn: (fields, message) => getLogger().warn(fields, message),
      error: (fields, message) => getLogger().error(fields, message),
    },
  });
  return shared;
}
