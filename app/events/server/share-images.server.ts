// The events' share cards, drawn off the event loop and ahead of the link-preview crawlers:
// - one drawing worker (share-image-worker.server.ts) draws one card at a time, and ends when it
//   has drawn nothing for a while (share-image-drawer.server.ts);
// - when a calendar read brings events, the soonest upcoming ones are queued to be drawn at once
//   (drawAhead), so a crawler following a freshly shared link finds its card ready;
// - a card asked for by a request goes before every card queued ahead;
// - drawn cards are kept by what they say (share-card.server.ts), in a cache of bounded size
//   (STORED_IMAGES_MB), so a new calendar version redraws only the cards whose text changed. This is
//   the one place a card's bytes are held: the server's answer store serves /events/:id/og.png from
//   these very bytes (server/answer-store.ts), keeping none of its own.
import { LRUCache } from "lru-cache";
import { site } from "~/content";
import type { Env } from "~/env.server";
import { eventsForTab } from "~/events/filter";
import type { CalendarEvent } from "~/events/model";
import type { Logger, Scrub } from "~/logger.server";
import { shareCardKey, shareCardOf, type ShareCard, type ShareCardSite } from "./share-card.server";
import { workerDrawer, type DrawCard } from "./share-image-drawer.server";

const MB = 1024 * 1024;

export type { DrawCard, Drawn } from "./share-image-drawer.server";
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
  /** Cards drawn and failed since start, waiting now, and what is kept (the metrics read it). */
  stats(): ShareImagesStats;
};

export type ShareImagesStats = {
  drawn: number;
  failed: number;
  waiting: number;
  /** Cards asked for (imageFor) that were kept, and that were not. */
  hits: number;
  misses: number;
  /** Cards dropped to make room. */
  evictions: number;
  keptBytes: number;
  kept: number;
  maxBytes: number;
};

export type ShareImagesOptions = {
  draw: DrawCard;
  siteOf: () => ShareCardSite;
  log: Log;
  /** How many of the soonest upcoming events get their card drawn when the calendar is read (SHARE_CARDS_AHEAD). */
  ahead: number;
  /** Bytes of drawn cards kept (STORED_IMAGES_MB; a card is about 40 to 80 kB). */
  maxBytes: number;
};

export function createShareImages({ draw, siteOf, log, ahead, maxBytes }: ShareImagesOptions): ShareImages {
  let evictions = 0;
  const cards = new LRUCache<string, Buffer>({
    maxSize: maxBytes,
    sizeCalculation: (png) => png.length,
    dispose: (_png, _key, reason) => {
      if (reason === "evict") evictions += 1;
    },
  });
  let hits = 0;
  let misses = 0;
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
          log.debug({ ms: Math.round(drawn.ms), workerPid: drawn.pid, ahead: !job.urgent }, "drew a share card");
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
    imageFor(event) {
      const card = shareCardOf(event, siteOf());
      if (cards.has(shareCardKey(card))) hits += 1;
      else misses += 1;
      return enqueue(card, true);
    },
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
    stats: () => ({
      drawn: drawnCount,
      failed: failedCount,
      waiting: queue.size,
      hits,
      misses,
      evictions,
      keptBytes: cards.calculatedSize,
      kept: cards.size,
      maxBytes: cards.maxSize,
    }),
  };
}

/** A site's share cards (server/site.ts), from its configuration: one drawing worker of their own, its stderr scrubbed by `scrub`. */
export function siteShareImages(env: Env, logger: Logger, siteUrl: string, scrub: Scrub): ShareImages {
  const host = new URL(siteUrl).host;
  return createShareImages({
    draw: workerDrawer({
      idleMs: env.timings.shareCardWorkerIdleMs,
      drawTimeoutMs: env.timings.drawTimeoutMs,
      scrub,
      log: (fields, message) => logger.debug(fields, message),
    }),
    ahead: env.SHARE_CARDS_AHEAD,
    maxBytes: env.STORED_IMAGES_MB * MB,
    siteOf: () => ({ name: site.name, shortName: site.shortName, host }),
    log: {
      debug: (fields, message) => logger.debug(fields, message),
      warn: (fields, message) => logger.warn(fields, message),
      error: (fields, message) => logger.error(fields, message),
    },
  });
}

/**
 * Starts the drawing worker and has it draw a first card (before the server listens), unless
 * SHARE_CARDS_AHEAD is 0: then the worker starts with the first card asked for.
 */
export async function warmShareImages(images: ShareImages, env: Env, logger: Logger): Promise<void> {
  if (env.SHARE_CARDS_AHEAD === 0) return;
  const warm = images.warm().catch((error: unknown) => logger.error({ err: error }, "the share card worker could not start"));
  let timer: NodeJS.Timeout | undefined;
  // At most this long: past it the worker goes on alone.
  await Promise.race([warm, new Promise((resolve) => (timer = setTimeout(resolve, env.timings.warmWaitMs)))]);
  clearTimeout(timer);
}
