// The server's side of a read: it asks the calendar worker (read-worker.server.ts, a process of its
// own) and swaps in what comes back. One worker, started when a read needs it and ended when it has
// been idle for a while, so a server at rest holds none of a read's memory (its parser, the pages,
// the descriptions it converted); replaced after a crash or a read that overruns its deadline. In development and unit
// tests (TypeScript Node cannot start as a worker, or a test's injected upstream) the same work runs
// on this thread.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { EventsLog, ReadResult, RestoredCopy } from "./cache.server";
import type { UpstreamOptions } from "./fetch-upstream.server";
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
  read(now: number, lastDigest: string | undefined): Promise<ReadResult>;
  restore(file: string, sourceDigest: string, now: number, maxAgeMs: number): Promise<RestoredCopy | undefined>;
};

/**
 * A read that takes longer is abandoned and the worker restarted: far above any honest read (every
 * page of a 25,000-event calendar, each attempt bounded by the upstream timeout), so only a stuck
 * parser ever meets it.
 */
export const READ_DEADLINE_MS = 180_000;
/**
 * The worker ends after this long without a request. Longer than the pause between the reads of a
 * calendar refreshed every few seconds (it then keeps the descriptions it converted), far shorter
 * than the default 5 minutes between reads.
 */
export const WORKER_IDLE_MS = 10_000;

/** A request in flight, and the worker it went to (an ending worker fails only its own). */
type Pending = { owner: ChildProcess; resolve: (message: WorkerMessage) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

export function calendarReader(
  source: CalendarSourceConfig,
  {
    upstream,
    log,
    inThread = !canRunAsWorker,
    idleMs = WORKER_IDLE_MS,
  }: { upstream: UpstreamOptions; log: EventsLog; inThread?: boolean; idleMs?: number },
): CalendarReader {
  if (inThread) {
    return {
      read: (now, lastDigest) => readCalendar(source, now, lastDigest, upstream),
      restore: async (file, sourceDigest, now, maxAgeMs) => restoreSavedCopy(file, sourceDigest, now, maxAgeMs, log),
    };
  }

  let worker: ChildProcess | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();
  const lines: Record<LogLevel, (message: string) => void> = {
    upstream: (message) => upstream.log(message),
    warn: (message) => log.warn(message),
    info: (message) => log.info(message),
    debug: (message) => log.debug(message),
  };

  function failAll(owner: ChildProcess, error: Error) {
    for (const [id, entry] of pending) {
      if (entry.owner !== owner) continue;
      clearTimeout(entry.timer);
      pending.delete(id);
      entry.reject(error);
    }
  }

  function start(): ChildProcess {
    // Structured clone carries the events and their JSON bytes as they are; nothing of the server's argv or inspector.
    const started = fork(fileURLToPath(workerModuleUrl), [WORKER_FLAG], {
      serialization: "advanced",
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      execArgv: [],
    });
    // Never what keeps the server running: shutting down ends a read like any other work (and the
    // worker ends when its channel closes).
    started.unref();
    started.channel?.unref();
    started.on("message", (message: WorkerMessage) => {
      if (message.type === "log") return lines[message.level](message.message);
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      clearTimeout(entry.timer);
      entry.resolve(message);
    });
    started.on("error", (error) => failAll(started, error));
    started.on("exit", (code, signal) => {
      if (worker === started) worker = undefined;
      failAll(started, new Error(`the calendar worker stopped (${signal ? `signal ${signal}` : `exit code ${code}`})`));
    });
    return started;
  }

  /** Ends the worker once nothing is pending for `idleMs`. */
  function idleLater() {
    clearTimeout(idleTimer);
    if (pending.size > 0 || !worker) return;
    const idle = worker;
    idleTimer = setTimeout(() => {
      if (worker !== idle || pending.size > 0) return;
      worker = undefined;
      idle.kill("SIGKILL");
    }, idleMs);
    idleTimer.unref();
  }

  function ask(request: WorkerRequest): Promise<WorkerMessage> {
    clearTimeout(idleTimer);
    worker ??= start();
    const current = worker;
    return new Promise<WorkerMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(request.id);
        reject(new Error(`a calendar read took over ${READ_DEADLINE_MS / 1000} s`));
        if (worker === current) worker = undefined;
        current.kill("SIGKILL");
      }, READ_DEADLINE_MS);
      timer.unref();
      pending.set(request.id, { owner: current, resolve, reject, timer });
      current.send(request);
    })
      .finally(idleLater)
      .then((message) => {
        if (message.type === "failed") throw fromWorkerError(message.error);
        return message;
      });
  }

  return {
    async read(now, lastDigest) {
      const message = await ask({ id: nextId++, type: "read", source, now, lastDigest });
      if (message.type !== "read") throw new Error(`the calendar worker answered ${message.type} to a read`);
      return message.result;
    },
    async restore(file, sourceDigest, now, maxAgeMs) {
      const message = await ask({ id: nextId++, type: "restore", file, sourceDigest, now, maxAgeMs });
      if (message.type !== "restore") throw new Error(`the calendar worker answered ${message.type} to a restore`);
      return message.copy;
    },
  };
}
