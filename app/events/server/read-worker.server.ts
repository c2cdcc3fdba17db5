// The calendar worker: the process where a read's work happens (read-calendar.server.ts): fetching,
// parsing, validating, sanitizing descriptions, sorting, serialising and hashing, and restoring the
// saved copy at start-up. The server only swaps in what it finishes (reader.server.ts). A process,
// not a thread: when it ends, everything a read allocated goes back to the system (a thread's leaves
// tens of MB in the server's allocator). In the built server this module and everything it imports
// are one chunk of their own (vite.config.ts, scripts/worker-chunks.ts), so the worker never loads
// the server bundle.
import type { ReadResult, RestoredCopy } from "./cache.server";
import { upstreamOptions, UpstreamError, type UpstreamFailure, type UpstreamTimings } from "./fetch-upstream.server";
import { readCalendar, restoreSavedCopy, type CalendarSourceConfig } from "./read-calendar.server";

/** Passed on the worker's command line, so the module knows it was started as the calendar worker. */
export const WORKER_FLAG = "--founders-circle-calendar-worker";

/** This module's own file: the worker runs it. */
export const workerModuleUrl = import.meta.url;

/** True where the module is built JavaScript Node can run as a worker (not Vite's or Vitest's TypeScript). */
export const canRunAsWorker = /\.m?js$/.test(new URL(import.meta.url).pathname);

export type WorkerRequest =
  | { id: number; type: "read"; source: CalendarSourceConfig; now: number; lastResponseHash?: string; timings: UpstreamTimings }
  | { id: number; type: "restore"; file: string; calendarIdentityHash: string; now: number; maxAgeMs: number };

/** An error as it is sent from the worker's process to the server's: an UpstreamError keeps what the cache's pace reads from it. */
export type WorkerError = {
  message: string;
  upstream?: { kind: UpstreamFailure; status?: number; retryable: boolean; retryAfterMs?: number };
};

/** `upstream`: a line of the upstream request's (the server's process decides its level); the others, the events log's. */
export type LogLevel = "upstream" | "warn" | "info" | "debug";

export type WorkerMessage =
  | { id: number; type: "log"; level: LogLevel; message: string }
  /** A page (or a feed) arrived for this read: it is still moving (reader.server.ts: its deadline starts again). */
  | { id: number; type: "progress" }
  | { id: number; type: "read"; result: ReadResult }
  | { id: number; type: "restore"; copy: RestoredCopy | undefined }
  | { id: number; type: "failed"; error: WorkerError };

function toWorkerError(error: unknown): WorkerError {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof UpstreamError)) return { message };
  const { kind, status, retryable, retryAfterMs } = error;
  return { message, upstream: { kind, status, retryable, retryAfterMs } };
}

export function fromWorkerError({ message, upstream }: WorkerError): Error {
  if (!upstream) return new Error(message);
  return new UpstreamError(message, upstream.kind, upstream.status, upstream.retryable, upstream.retryAfterMs);
}

const send = process.send?.bind(process);
if (send && process.argv.includes(WORKER_FLAG)) {
  // The server is gone (or ended this process): nothing is left to read for.
  process.on("disconnect", () => process.exit(0));
  process.on("message", (request: WorkerRequest) => {
    const log = (level: LogLevel) => (message: string) =>
      void send({ id: request.id, type: "log", level, message } satisfies WorkerMessage);
    const work = async (): Promise<WorkerMessage> => {
      if (request.type === "restore") {
        const events = { warn: log("warn"), info: log("info"), debug: log("debug") };
        const copy = restoreSavedCopy(request.file, request.calendarIdentityHash, request.now, request.maxAgeMs, events);
        return { id: request.id, type: "restore", copy };
      }
      const upstream = {
        ...upstreamOptions(request.timings),
        log: log("upstream"),
        onAnswer: () => void send({ id: request.id, type: "progress" } satisfies WorkerMessage),
      };
      const result = await readCalendar(request.source, request.now, request.lastResponseHash, upstream);
      return { id: request.id, type: "read", result };
    };
    work().then(
      (message) => send(message),
      (error: unknown) => send({ id: request.id, type: "failed", error: toWorkerError(error) } satisfies WorkerMessage),
    );
  });
}
