// Pages and API answers rendered once and kept as complete answers (server/stored-answer.ts):
// static pages once per process (at start-up), the events page and API once per calendar version
// and view, one 404 page for every unknown path. What a stranger can vary (query strings, paths,
// letter case) resolves to one of those few keys first (server/resolve-target.ts), so it never
// makes a render or a cache entry. Two stores: the static pages (a fixed set, known from the route
// table, never evicted), and a least-recently-used memory budget for what follows the calendar: its
// pages (and API answers, downloads). Share images are held once, by the share cards' own store
// (its budget is the images'), and answered from its very bytes. A crawl of every share card, or of
// every event page, never pushes out the home page.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { IncomingMessage } from "node:http";
import { LRUCache } from "lru-cache";
import mime from "mime-types";
import type { CalendarEvent } from "~/events/model";
import { jsonError } from "~/events/server/http.server";
import type { EventsOutcome } from "~/events/server/outcome.server";
import { tabSearch } from "~/events/tab";
import { pathOf, siteRoutes, type CacheKind, type SiteRoute } from "~/site-routes";
import { cacheControlFor, EVENTS_CACHE_CONTROL } from "./cache-policy";
import { pathOfTarget, sendError } from "./errors";
import { resolveTarget } from "./resolve-target";
import type { CspFor } from "./security";
import type { Step } from "./step";
import { sendStored, storeAnswer, storeFile, type StoredAnswer } from "./stored-answer";

/** Renders a GET of `url` (path and query) with React Router, for the events outcome given (if any). */
export type Render = (url: string, events?: EventsOutcome) => Promise<globalThis.Response>;

export type AnswerStoreOptions = {
  render: Render;
  csp: CspFor;
  /** The client build, whose files are answered from memory. */
  clientRoot?: string;
  /** The site's calendar's current outcome, waiting at most `waitMs` for a first read. */
  eventsOutcome: (waitMs?: number) => Promise<EventsOutcome>;
  /** Bytes kept for pages (HTML, data, JSON, downloads): STORED_PAGES_MB. */
  budgets: { pages: number };
  /** The share cards' own store, which answers /events/:id/og.png; without it those are rendered and not kept. */
  shareCards?: ShareCardSource;
  /** Called for every render (a debug log line: renders are rare, and tests count them). */
  onRender?: (url: string) => void;
  /** Whether a request came over HTTPS (its pages' CSP then upgrades insecure requests). */
  secure: (req: IncomingMessage) => boolean;
};

export type AnswerStore = {
  /** Answers a GET or HEAD it has (or renders) an answer for; passes anything else on. */
  step: Step;
  /** Renders every static page and the 404 page, so no visitor waits for a first render. */
  warm: () => Promise<void>;
  /**
   * Prepares the answers most asked for after the calendar's version changed (the events list, its
   * past tab, the API, compressed), so the first visitor after a change does not wait for them;
   * nothing when this version's are prepared already. Resolves with when the version next changes by
   * itself (an event ends), if it will; rejects when one could not be made.
   */
  prepareEvents: () => Promise<number | undefined>;
  /** What each store holds and has done since start (the metrics read it when scraped). */
  stats: () => AnswerStoreStats;
};

/** The events answers prepared after each change of the calendar. */
const PREPARED_AFTER_CHANGE = ["/events", `/events${tabSearch("past")}`, "/api/calendar/events"];

/** The memory budgets of answers that follow the calendar: pages here, images in the share cards' store. */
export type StoreBudget = "pages" | "images";
/** The stores: the budgets, and the static pages' (a fixed set, never evicted). */
export type StoreKind = StoreBudget | "static";

/** The share cards' own store (app/events/server/share-images.server.ts): the one holder of their bytes. */
export type ShareCardSource = {
  /** The event's card: kept, or drawn. */
  png: (event: CalendarEvent) => Promise<Buffer>;
  /** What it holds and has done: the images' budget in this store's stats. */
  stats: () => BudgetStats;
};
/** Entries the static store may hold: far more than the route table can make (pages, their data, redirects, the 404). */
const MAX_STATIC_ANSWERS = 1_000;

export type BudgetStats = {
  /** Answers found ready in the store. */
  hits: number;
  /** Answers not ready (made, or being made for an earlier request). */
  misses: number;
  /** React Router renders (a miss that is not a made-up answer such as a redirect). */
  renders: number;
  /** Answers dropped to make room (not those a newer calendar version replaced). */
  evictions: number;
  bytes: number;
  entries: number;
  /** The budget; none for the static pages. */
  maxBytes?: number;
};
/** Per store, and the client build's files (always in memory: only hits and bytes). */
export type AnswerStoreStats = Record<StoreKind, BudgetStats> & { files: { hits: number; bytes: number; entries: number } };

/** What React Router renders for an unknown path (and its data); the same bytes serve every one. */
const NOT_FOUND_URL = "/__not-found";
const NOT_FOUND_DATA_URL = "/__not-found.data";

type Job = { url: string; kind: CacheKind; events?: EventsOutcome; make?: () => globalThis.Response };

export function createAnswerStore({
  render,
  csp,
  clientRoot,
  eventsOutcome,
  budgets,
  shareCards,
  onRender,
  secure,
}: AnswerStoreOptions): AnswerStore {
  // The client build (about 1.3 MB) is served from memory too: a file read from disk waits for
  // several turns of the event loop, each behind every other request of a busy moment.
  const files = clientRoot ? loadFiles(clientRoot) : new Map<string, StoredAnswer>();
  const fileBytes = [...files.values()].reduce((sum, file) => sum + file.byteLength, 0);

  const counts = (): Omit<BudgetStats, "bytes" | "entries" | "maxBytes"> => ({ hits: 0, misses: 0, renders: 0, evictions: 0 });
  const tally: Record<Exclude<StoreKind, "images">, ReturnType<typeof counts>> = { static: counts(), pages: counts() };
  let fileHits = 0;

  // lru-cache's fetch() shares one render between concurrent requests for the same key.
  const store = (name: Exclude<StoreKind, "images">) =>
    new LRUCache<string, StoredAnswer, Job>({
      ...(name === "static"
        ? { max: MAX_STATIC_ANSWERS }
        : { maxSize: budgets[name], sizeCalculation: (answer: StoredAnswer) => answer.byteLength }),
      // A newer version may drop a key while it renders; the requests waiting for it still get it.
      ignoreFetchAbort: true,
      fetchMethod: async (_key, _stale, { context: job }) => {
        if (!job.make) {
          tally[name].renders += 1;
          onRender?.(job.url);
        }
        const response = job.make ? job.make() : await render(job.url, job.events);
        return storeAnswer(response, { csp, cacheControl: cacheControlFor(job.kind, response.status, job.events?.ok !== false) });
      },
      dispose: (_answer, _key, reason) => {
        if (reason === "evict") tally[name].evictions += 1;
      },
    });
  const stores = { static: store("static"), pages: store("pages") };
  // The key each URL was last stored under: a new calendar version drops the previous answer.
  const current = new LRUCache<string, string>({ max: 10_000 });

  async function answerFor(key: string, job: Job): Promise<StoredAnswer> {
    const name = job.kind === "static" ? "static" : "pages";
    const answers = stores[name];
    const previous = current.get(job.url);
    if (previous !== undefined && previous !== key) answers.delete(previous);
    current.set(job.url, key);
    tally[name][answers.has(key) ? "hits" : "misses"] += 1;
    const answer = await answers.fetch(key, { context: job });
    if (!answer) throw new Error(`no answer for ${job.url}`);
    // A 5xx (a failed render, the API while the calendar is down) goes to the requests that waited for it and is not kept.
    if (answer.status >= 500) answers.delete(key);
    return answer;
  }

  const notFound = () => answerFor(NOT_FOUND_URL, { url: NOT_FOUND_URL, kind: "static" });
  const unknownEvent = () =>
    answerFor("unknown-event", { url: "unknown-event", kind: "events", make: () => jsonError(404, "No event with this id.") });

  async function answer(requestTarget: string): Promise<StoredAnswer | "missing-file" | undefined> {
    const path = pathOfTarget(requestTarget);
    const file = files.get(path);
    if (file) {
      fileHits += 1;
      return file;
    }
    const target = resolveTarget(path, requestTarget.slice(path.length + 1));
    if (target.kind === "pass") return undefined;
    if (target.kind === "missing-file") return "missing-file";
    if (target.kind === "not-found") return notFound();
    if (target.kind === "not-found-data") return answerFor(NOT_FOUND_DATA_URL, { url: NOT_FOUND_DATA_URL, kind: "static" });
    if (target.kind === "redirect") {
      const { location } = target;
      return answerFor(`redirect ${location}`, {
        url: `redirect ${location}`,
        kind: "static",
        make: () => new Response(null, { status: 301, headers: { Location: location } }),
      });
    }
    const { route, url, params } = target;
    if (route.cache === "static") return answerFor(url, { url, kind: "static" });
    const events = await eventsOutcome(route.eventsWaitMs);
    if (route.eventParam !== undefined || route.archivePage !== undefined) {
      // An unknown event id or archive page is one stored 404; while the calendar is unavailable, one stored error.
      if (!events.ok) return answerFor(`${route.pattern}|${events.version}`, { url, kind: "events", events });
      const event = route.eventParam === undefined ? undefined : events.eventOf(params[route.eventParam] ?? "");
      if (route.eventParam !== undefined ? !event : !names(route, params, events)) {
        if (url.split("?")[0]!.endsWith(".data")) return answerFor(NOT_FOUND_DATA_URL, { url: NOT_FOUND_DATA_URL, kind: "static" });
        return route.unknownEvent === "json" ? unknownEvent() : notFound();
      }
      if (event && route.storeBudget === "images") return shareCards ? shareCard(shareCards, event) : render(url, events).then(unkept);
    }
    return answerFor(`${url}|${events.version}`, { url, kind: "events", events });
  }

  // A card's answer wraps the card store's own bytes (no copy), made once per card and gone with it.
  const cardAnswers = new WeakMap<Buffer, StoredAnswer>();
  async function shareCard(source: ShareCardSource, event: CalendarEvent): Promise<StoredAnswer> {
    const png = await source.png(event);
    let answer = cardAnswers.get(png);
    if (!answer) {
      answer = storeFile({ identity: png }, { type: "image/png", cacheControl: EVENTS_CACHE_CONTROL });
      cardAnswers.set(png, answer);
    }
    return answer;
  }

  /** A render sent as it is and kept by no one here (a share card without the cards' store: tests). */
  const unkept = (response: globalThis.Response) =>
    storeAnswer(response, { csp, cacheControl: cacheControlFor("events", response.status, true) });

  /** The calendar version whose answers prepareEvents made last. */
  let preparedVersion: string | undefined;

  const step: Step = (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    answer(req.url ?? "/")
      .then((stored) => {
        if (stored === undefined) return next();
        // Not kept by anyone: during a rolling deploy a new page may ask an old server for its new files.
        if (stored === "missing-file") return sendError(req, res, 404, "Not found");
        sendStored(req, res, stored, secure(req));
      })
      .catch(next);
  };

  return {
    step,
    async warm() {
      const statics = siteRoutes.filter((route) => route.cache === "static" && !route.pattern.includes(":")).map(pathOf);
      await Promise.all([...statics.map((url) => answerFor(url, { url, kind: "static" })), notFound()]);
    },
    async prepareEvents() {
      const events = await eventsOutcome();
      // Nothing to prepare while the calendar is unavailable (an error is never kept), nor twice for one version.
      if (!events.ok) return undefined;
      if (events.version !== preparedVersion) {
        const answers = await Promise.all(PREPARED_AFTER_CHANGE.map((target) => answer(target)));
        const failed = answers.find((stored) => typeof stored === "object" && stored.status >= 500);
        if (failed) throw new Error(`an events answer could not be made (status ${(failed as StoredAnswer).status})`);
        preparedVersion = events.version;
      }
      return events.nextChangeAt;
    },
    stats() {
      const of = (name: Exclude<StoreKind, "images">): BudgetStats => {
        const answers = stores[name];
        let bytes = answers.calculatedSize;
        if (name === "static") {
          bytes = 0;
          for (const answer of answers.values()) bytes += answer.byteLength;
        }
        return { ...tally[name], bytes, entries: answers.size, ...(name === "static" ? {} : { maxBytes: answers.maxSize }) };
      };
      return {
        static: of("static"),
        pages: of("pages"),
        images: shareCards?.stats() ?? { hits: 0, misses: 0, renders: 0, evictions: 0, bytes: 0, entries: 0, maxBytes: 0 },
        files: { hits: fileHits, bytes: fileBytes, entries: files.size },
      };
    },
  };
}

/** Whether the calendar has what the address's parameters name: the event, or the archive page. */
/** Whether an archive route's parameters name a page of this calendar. */
function names(route: SiteRoute, params: Record<string, string | undefined>, events: EventsOutcome & { ok: true }): boolean {
  if (!route.archivePage) return true;
  const { month, part } = route.archivePage;
  return events.hasArchivePage(params[month], part === undefined ? undefined : params[part]);
}

/** Hashed files never change; the others (favicon, images) may with a deploy. */
const IMMUTABLE = "public, max-age=31536000, immutable";
const ONE_HOUR = "public, max-age=3600";

/** Every file under the client build by URL path ("/favicon.svg"), with its build-time .br and .gz. */
function loadFiles(root: string): Map<string, StoredAnswer> {
  const paths = new Set<string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const segments = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep);
    // Like the static server: no dotfiles (.vite/manifest.json is the build's, not the public's).
    if (segments.some((segment) => segment.startsWith("."))) continue;
    paths.add(`/${segments.join("/")}`);
  }
  const read = (file: string) => readFileSync(path.join(root, ...file.split("/")));
  const files = new Map<string, StoredAnswer>();
  for (const file of paths) {
    const bodies: StoredAnswer["bodies"] = { identity: read(file) };
    if (paths.has(`${file}.br`)) bodies.br = read(`${file}.br`);
    if (paths.has(`${file}.gz`)) bodies.gzip = read(`${file}.gz`);
    const type = mime.contentType(path.extname(file)) || "application/octet-stream";
    files.set(file, storeFile(bodies, { type, cacheControl: file.startsWith("/assets/") ? IMMUTABLE : ONE_HOUR }));
  }
  return files;
}
