// The server's side of a read: it asks the calendar worker (read-worker.server.ts, a process of its
// own) and swaps in what comes back. One worker (child-worker.server.ts), started when a read needs
// it and ended when it has been idle for a while, so a server at rest holds none of a read's memory
// (its parser, the pages, the descriptions it converted); replaced after a crash, an error, or a read
// that goes a page's budget without progress. It is started with only the variables it needs (its
// calendar's key comes with each read, over the channel), its stderr scrubbed of the site's secrets. In
// development and unit tests (TypeScript Node cannot start as a worker, or a test's injected
// upstream) the same work runs in this process.
import { workerEnvironment } from "~/env.server";
import type { Scrub } from "~/logger.server";
import { PRODUCTION_TIMINGS, type Timings } from "~/timings.server";
import type { EventsLog, ReadResult, RestoredCopy } from "./cache.server";
import { childWorker, forkWorker } from "./child-worker.server";
import type { UpstreamOptions, UpstreamTimings } from "./fetch-upstream.server";
import { readCalendar, restoreSavedCopy, type CalendarSourceConfig } from "./read-calendar.server";
import {
  canRunAsWorker,
  fromWorkerError,
  WORKER_FLAG,
  workerModuleUrl,
  type LogLevel,
  type WorkerMessage,
  type WorkerRequest,
} from "./read-worker.server";

export type CalendarReader = {
  read(now: number, lastResponseHash: string | undefined): Promise<ReadResult>;
  restore(file: string, calendarIdentityHash: string, now: number, maxAgeMs: number): Promise<RestoredCopy | undefined>;
};

/** What the calendar worker is started with: no secret (its calendar's key comes with each read), the network's and Node's own settings. */
const WORKER_ENV = [
  "NODE_ENV",
  "NODE_OPTIONS",
  "TZ",
  // A TLS-intercepting proxy's CA, and Node's own proxy settings: the worker fetches the calendar.
  "NODE_EXTRA_CA_CERTS",
  "NODE_USE_ENV_PROXY",
  /^(HTTPS?|NO)_PROXY$/i,
] as const;
/** The reader's timings (app/timings.server.ts): the upstream's go to the worker with each read. */
export type ReaderTimings = UpstreamTimings & Pick<Timings, "readPageBudgetMs" | "calendarWorkerIdleMs">;

export function calendarReader(
  source: CalendarSourceConfig,
  {
    upstream,
    log,
    inThread = !canRunAsWorker,
    timings = PRODUCTION_TIMINGS,
    scrub,
  }: {
    upstream: UpstreamOptions;
    log: EventsLog;
    inThread?: boolean;
    timings?: ReaderTimings;
    /** What the worker writes to stderr passes through this: the site's scrubber (server/site.ts). */
    scrub: Scrub;
  },
): CalendarReader {
  if (inThread) {
    return {
      read: (now, lastResponseHash) => readCalendar(source, now, lastResponseHash, upstream),
      restore: async (file, calendarIdentityHash, now, maxAgeMs) => restoreSavedCopy(file, calendarIdentityHash, now, maxAgeMs, log),
    };
  }

  const lines: Record<LogLevel, (message: string) => void> = {
    upstream: (message) => upstream.log(message),
    warn: (message) => log.warn(message),
    info: (message) => log.info(message),
    debug: (message) => log.debug(message),
  };
  const worker = childWorker<WorkerRequest, WorkerMessage>({
    start: () => forkWorker(workerModuleUrl, WORKER_FLAG, { env: workerEnvironment(WORKER_ENV), scrub }),
    name: "calendar worker",
    // Ended after this long without a request: a server at rest holds none of a read's memory.
    idleMs: timings.calendarWorkerIdleMs,
    // Per page: each page that arrives starts it again, so only a stuck upstream or parser meets it.
    timeoutMs: timings.readPageBudgetMs,
    timeoutMessage: `a calendar read went ${timings.readPageBudgetMs / 1000} s without a page`,
    progress: (message) => message.type === "progress",
    aside(message) {
      if (message.type !== "log") return false;
      lines[message.level](message.message);
      return true;
    },
  });

  async function ask(make: (id: number) => WorkerRequest): Promise<WorkerMessage> {
    const message = await worker.ask(make);
    if (message.type === "failed") throw fromWorkerError(message.error);
    return message;
  }

  return {
    async read(now, lastResponseHash) {
      const { upstreamTimeoutMs, upstreamRetryMs, inReadWaitMaxMs, rateLimitHoldOffMs, quotaHoldOffMs } = timings;
      const upstreamTimings = { upstreamTimeoutMs, upstreamRetryMs, inReadWaitMaxMs, rateLimitHoldOffMs, quotaHoldOffMs };
      const message = await ask((id) => ({ id, type: "read", source, now, lastResponseHash, timings: upstreamTimings }));
      if (message.type !== "read") throw new Error(`the calendar worker answered ${message.type} to a read`);
      return message.result;
    },
    async restore(file, calendarIdentityHash, now, maxAgeMs) {
      const message = await ask((id) => ({ id, type: "restore", file, calendarIdentityHash, now, maxAgeMs }));
      if (message.type !== "restore") throw new Error(`the calendar worker answered ${message.type} to a restore`);
      return message.copy;
    },
  };
}
