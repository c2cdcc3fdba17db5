// The server's side of a worker process (the calendar reader's, the share card drawer's): requests
// go over the IPC channel with an id and come back with it. One worker at a time, started by the
// first request, ended when nothing has been asked of it for `idleMs`, and replaced after it stops,
// reports an error, or a request goes `timeoutMs` without an answer or a word of progress. A worker is
// dropped (nothing is sent to it again) before it is killed, so a request asked meanwhile goes to a
// fresh one; each worker answers or fails only the requests it was sent, never its replacement's.
// Only the server bundle imports this: a worker module that did would pull the server's code into
// its process.
import { fork, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";

export type ChildWorkerOptions<Res> = {
  /** Starts the worker: a process with an IPC channel (`forkWorker`; tests start their own). */
  start: () => ChildProcess;
  /** Its name in errors and log lines ("calendar worker"). */
  name: string;
  /** How long the worker stays with nothing pending. */
  idleMs: number;
  /**
   * A request that goes this long without its answer (or, with `progress`, without a word of
   * progress) fails with `timeoutMessage`, and its worker is killed.
   */
  timeoutMs: number;
  timeoutMessage: string;
  /** A message that answers no request (a log line the worker passes on): true once handled. */
  aside?: (message: Res) => boolean;
  /** A message saying its request is still moving (a page arrived): true when it is one; the request's time starts again. */
  progress?: (message: Res) => boolean;
  /** Told when a worker starts and when it ends (debug lines). */
  log?: (fields: object, message: string) => void;
};

export type ChildWorker<Req, Res> = {
  /** Sends the request `make(id)` builds; resolves with the message that answers that id. */
  ask(make: (id: number) => Req): Promise<Res>;
};

export type ForkOptions = {
  /** The worker's whole environment: only the variables it needs (never the server's secrets). */
  env: NodeJS.ProcessEnv;
  /** What the worker writes to stderr passes through this (the log's secret scrubber) on its way to `stderr`. */
  scrub: (text: string) => string;
  /** Where its stderr goes: the server's own by default. */
  stderr?: Writable;
};

/**
 * Starts a worker module (its `import.meta.url`) with the flag that tells it its role, and the
 * environment given and nothing else of the server's. Structured clone carries what crosses (events,
 * a PNG's bytes) as it is; nothing of the server's argv or inspector goes along. Its stdout is
 * dropped (it reports over the channel); its stderr carries only what cannot go over the channel, why
 * a worker died (an uncaught error, V8 out of heap), and reaches the server's stderr line by line
 * through `scrub`. The integration tests that expect an empty stderr keep the workers quiet.
 */
export function forkWorker(moduleUrl: string, flag: string, { env, scrub, stderr = process.stderr }: ForkOptions): ChildProcess {
  const child = fork(fileURLToPath(moduleUrl), [flag], {
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    execArgv: [],
    env,
  });
  if (child.stderr) passScrubbed(child.stderr, scrub, stderr);
  return child;
}

/** A line longer than this is passed on in pieces (a secret cut at a piece's edge could then pass). */
const MAX_LINE_CHARS = 1024 * 1024;

/** Passes `from` on to `to` whole lines at a time (a secret split between two chunks is still one line), each scrubbed. */
export function passScrubbed(from: Readable, scrub: (text: string) => string, to: Writable): void {
  let pending = "";
  from.setEncoding("utf8");
  from.on("data", (chunk: string) => {
    pending += chunk;
    const end = pending.lastIndexOf("\n");
    if (end === -1 && pending.length < MAX_LINE_CHARS) return;
    const cut = end === -1 ? pending.length : end + 1;
    to.write(scrub(pending.slice(0, cut)));
    pending = pending.slice(cut);
  });
  from.on("end", () => {
    if (pending) to.write(scrub(pending));
    pending = "";
  });
  // Never what keeps the server running (the worker's channel is unref'd too).
  (from as Readable & { unref?: () => void }).unref?.();
}

type Pending<Res> = { resolve: (message: Res) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };
/** One worker and the requests sent to it. */
type Running<Res> = { child: ChildProcess; pending: Map<number, Pending<Res>>; idle?: NodeJS.Timeout };

export function childWorker<Req extends object, Res extends { id: number }>(options: ChildWorkerOptions<Res>): ChildWorker<Req, Res> {
  const { name, idleMs, timeoutMs, log } = options;
  let current: Running<Res> | undefined;
  let nextId = 0;

  function fail(running: Running<Res>, error: Error) {
    if (current === running) current = undefined;
    clearTimeout(running.idle);
    for (const { reject, timer } of running.pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    running.pending.clear();
  }

  /** Nothing is sent to this worker any more; killed, it fails what it still had pending. */
  function end(running: Running<Res>, why: string) {
    if (current === running) current = undefined;
    clearTimeout(running.idle);
    log?.({ workerPid: running.child.pid, why }, `${name} ending`);
    running.child.kill("SIGKILL");
  }

  /** The request's deadline, from now: past it, the request fails and its worker is ended. */
  function deadline(running: Running<Res>, id: number, reject: (error: Error) => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      running.pending.delete(id);
      reject(new Error(options.timeoutMessage));
      end(running, "timeout");
    }, timeoutMs);
    timer.unref();
    return timer;
  }

  function start(): Running<Res> {
    const child = options.start();
    // Never what keeps the server running: shutting down ends a request like any other work (and
    // the worker ends when its channel closes).
    child.unref();
    child.channel?.unref();
    const running: Running<Res> = { child, pending: new Map() };
    log?.({ workerPid: child.pid }, `${name} started`);
    child.on("message", (message: Res) => {
      if (options.aside?.(message)) return;
      const entry = running.pending.get(message.id);
      if (!entry) return;
      if (options.progress?.(message)) {
        clearTimeout(entry.timer);
        entry.timer = deadline(running, message.id, entry.reject);
        return;
      }
      running.pending.delete(message.id);
      clearTimeout(entry.timer);
      entry.resolve(message);
      if (running.pending.size === 0 && current === running) {
        running.idle = setTimeout(() => running.pending.size === 0 && end(running, "idle"), idleMs);
        running.idle.unref();
      }
    });
    // A worker that could not be spawned, signalled or sent to is of no more use: its requests fail
    // with what went wrong, and it is killed, not left to live on until the server exits.
    child.on("error", (error) => {
      fail(running, error);
      end(running, "error");
    });
    child.on("exit", (code, signal) => {
      fail(running, new Error(`the ${name} stopped (${signal ? `signal ${signal}` : `exit code ${code}`})`));
    });
    return running;
  }

  return {
    ask(make) {
      current ??= start();
      const running = current;
      clearTimeout(running.idle);
      const id = nextId++;
      return new Promise<Res>((resolve, reject) => {
        running.pending.set(id, { resolve, reject, timer: deadline(running, id, reject) });
        running.child.send(make(id));
      });
    },
  };
}
