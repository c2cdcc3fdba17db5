// The process's Prometheus metrics (prom-client): its default Node metrics (event-loop delay, heap,
// GC, CPU) and the site's own. Counts kept elsewhere (the answer store, the share cards, the
// calendar's state) are read when scraped, so serving a request costs nothing more than before;
// what only passes by (refusals, responses, calendar reads) is counted here as it happens.
// Served on a listener of its own (server/metrics-server.ts), never the public port.
import { statSync } from "node:fs";
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";
import type { EventsStatus, ReadOutcome } from "~/events/server/events.server";
import type { ShareImagesStats } from "~/events/server/share-images.server";
import type { AnswerStoreStats } from "./answer-store";
import type { LimitName } from "./rate-limit";

type MetricsSources = {
  /** The calendar's state (the events service's status(): reads nothing upstream). */
  calendar: () => EventsStatus;
  /** The calendar's saved copy on disk, whose age is its modification time's; none when it is "off". */
  savedCopyPath?: string;
  /** The stored answers; none when every request renders (development). */
  store?: () => AnswerStoreStats;
  shareCards: () => ShareImagesStats;
};

export type Metrics = {
  registry: Registry;
  /** A request refused by a rate limit. */
  refused: (limit: LimitName) => void;
  /** A response sent, by status. */
  responded: (status: number) => void;
  /** A calendar read's outcome. */
  calendarRead: (read: ReadOutcome) => void;
};

const STATES: EventsStatus["state"][] = ["cold", "restored", "fresh", "stale", "failing"];
const seconds = (ms: number | undefined) => (ms === undefined ? 0 : ms / 1000);

/** A counter whose total is kept elsewhere and read when scraped (it only ever grows there). */
function countedElsewhere<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
  read: () => [Partial<Record<L, string>>, number][],
) {
  return new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

/** A gauge whose values are kept elsewhere and read when scraped, labelled by kind. */
function readElsewhere(registry: Registry, name: string, help: string, read: () => [{ kind: string }, number][]) {
  return new Gauge({
    name,
    help,
    labelNames: ["kind"],
    registers: [registry],
    collect() {
      for (const [labels, value] of read()) this.set(labels, value);
    },
  });
}

export function createMetrics({ calendar, savedCopyPath, store, shareCards }: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  // Calendar.
  const reads = new Counter({
    name: "calendar_reads_total",
    help: "Reads of the calendar, by source (google, ics, sample) and outcome (ok, failed, restored: the saved copy at start).",
    labelNames: ["source", "outcome"],
    registers: [registry],
  });
  const listed = new Gauge({ name: "calendar_events", help: "Events in the calendar's last good read.", registers: [registry] });
  new Gauge({
    name: "calendar_state",
    help: "The calendar's state: 1 for the current one (cold, restored, fresh, stale, failing), 0 for the others.",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const now = calendar().state;
      for (const state of STATES) this.set({ state }, state === now ? 1 : 0);
    },
  });
  new Gauge({
    name: "calendar_last_success_timestamp_seconds",
    help: "When the last good read of the calendar was made (Unix time; a restored saved copy's read time); 0 before any.",
    registers: [registry],
    collect() {
      this.set(seconds(calendar().lastSuccessAt));
    },
  });
  new Gauge({
    name: "calendar_consecutive_failures",
    help: "Failed reads of the calendar since the last good one.",
    registers: [registry],
    collect() {
      this.set(calendar().consecutiveFailures);
    },
  });
  new Gauge({
    name: "calendar_next_attempt_timestamp_seconds",
    help: "The earliest time the next read of the calendar may start (Unix time; after a failure, the end of the backoff); 0 before any read.",
    registers: [registry],
    collect() {
      this.set(seconds(calendar().nextAttemptAt));
    },
  });
  if (savedCopyPath) {
    new Gauge({
      name: "calendar_saved_copy_age_seconds",
      help: "Age of the calendar's saved copy on disk (EVENTS_SAVED_COPY_PATH), from its modification time; NaN while there is none.",
      registers: [registry],
      collect() {
        let modified: number | undefined;
        try {
          modified = statSync(savedCopyPath).mtimeMs;
        } catch {
          modified = undefined;
        }
        this.set(modified === undefined ? Number.NaN : Math.max(0, (Date.now() - modified) / 1000));
      },
    });
  }

  // Stored answers, by store: the static pages (never evicted), the two budgets (pages, images) and the client build's files.
  if (store) {
    // One look at the store per scrape: prom-client collects every metric in one synchronous pass.
    let seen: AnswerStoreStats | undefined;
    const stats = () => {
      if (!seen) {
        seen = store();
        queueMicrotask(() => (seen = undefined));
      }
      return seen;
    };
    const KINDS = ["static", "pages", "images", "files"] as const;
    /** A field of every kind that has it, as labelled samples. */
    const perKind =
      (field: "hits" | "misses" | "renders" | "evictions" | "bytes" | "entries" | "maxBytes") => (): [{ kind: string }, number][] =>
        KINDS.flatMap((kind) => {
          const value = (stats()[kind] as Partial<Record<typeof field, number>>)[field];
          return value === undefined ? [] : [[{ kind }, value]];
        });
    countedElsewhere(
      registry,
      "stored_answers_hits_total",
      "Requests answered from the store, by kind (static, pages, images, files).",
      ["kind"],
      perKind("hits"),
    );
    countedElsewhere(
      registry,
      "stored_answers_misses_total",
      "Requests whose answer was not ready in the store, by kind.",
      ["kind"],
      perKind("misses"),
    );
    countedElsewhere(
      registry,
      "stored_answers_renders_total",
      "React Router renders made for the store, by kind.",
      ["kind"],
      perKind("renders"),
    );
    countedElsewhere(
      registry,
      "stored_answers_evictions_total",
      "Answers dropped to make room in their budget, by kind.",
      ["kind"],
      perKind("evictions"),
    );
    readElsewhere(registry, "stored_answers_bytes", "Bytes held by stored answers, by kind (each encoding counted).", perKind("bytes"));
    readElsewhere(
      registry,
      "stored_answers_budget_bytes",
      "Memory budget of stored answers, by kind (STORED_PAGES_MB, STORED_IMAGES_MB).",
      perKind("maxBytes"),
    );
    readElsewhere(registry, "stored_answers", "Answers held, by kind.", perKind("entries"));
  }

  // Share cards.
  countedElsewhere(registry, "share_cards_drawn_total", "Share cards drawn.", [], () => [[{}, shareCards().drawn]]);
  countedElsewhere(registry, "share_cards_failed_total", "Share cards that could not be drawn.", [], () => [[{}, shareCards().failed]]);
  new Gauge({
    name: "share_cards_waiting",
    help: "Share cards queued or drawing.",
    registers: [registry],
    collect() {
      this.set(shareCards().waiting);
    },
  });

  // Requests.
  const refusals = new Counter({
    name: "http_requests_refused_total",
    help: "Requests refused (429) by a rate limit: api, pages or speculative.",
    labelNames: ["limit"],
    registers: [registry],
  });
  const responses = new Counter({
    name: "http_responses_total",
    help: "Responses sent on the public port, by status class (2xx, 3xx, 4xx, 5xx).",
    labelNames: ["class"],
    registers: [registry],
  });
  // Every series there from the first scrape: a rate() over a counter that appears later misses its first increase.
  for (const limit of ["api", "pages", "speculative"]) refusals.inc({ limit }, 0);
  for (const status of ["1xx", "2xx", "3xx", "4xx", "5xx"]) responses.inc({ class: status }, 0);

  return {
    registry,
    refused: (limit) => refusals.inc({ limit }),
    responded: (status) => responses.inc({ class: `${Math.floor(status / 100)}xx` }),
    calendarRead(read) {
      reads.inc({ source: read.source, outcome: read.outcome });
      if (read.events !== undefined) listed.set(read.events);
    },
  };
}
