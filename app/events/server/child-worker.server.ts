// The server's side of a worker process (the calendar reader's, the share card drawer's): requests
// go over the IPC channel with an id and come back with it. One worker at a time, started by the
// first request, ended when nothing has been asked of it for `idleMs`, and replaced after it stops
// or a request overruns `timeoutMs`. A worker is dropped (nothing is sent to it again) before it is
// killed, so a request asked meanwhile goes to a fresh one; each worker answers or fails only the
// requests it was sent, never its replacement's. Only the server bundle imports this: a worker
// module that did would pull the server's code into its process.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export type ChildWorkerOptions<Res> = {
  /** Starts the worker: a process with an IPC channel (`forkWorker`; tests start their own). */
  start: () => ChildProcess;
  /** Its name in errors and log lines ("calendar worker"). */
  name: string;
  /** How long the worker stays with nothing pending. */
  idleMs: number;
  /** A request that takes longer fails with `timeoutMessage`, and its worker is killed. */
  timeoutMs: number;
  timeoutMessage: string;
  /** A message that answers no request (a log line the worker passes on): true once handled. */
  aside?: (message: Res) => boolean;
  /** Told when a worker starts and when it ends (debug lines). */
  log?: (fields: object, message: string) => void;
};

export type ChildWorker<Req, Res> = {
  /** Sends the request `make(id)` builds; resolves with the message that answers that id. */
  ask(make: (id: number) => Req): Promise<Res>;
};

/**
 * Starts a worker module (its `import.meta.url`) with the flag that tells it its role. Structured
 * clone carries what crosses (events, a PNG's bytes) as it is; nothing of the server's argv or
 * inspector goes along. Its stdout is dropped (it reports over the channel) and its stderr is the
 * server's: every expected outcome comes back over the channel, so stderr carries only what cannot,
 * why a worker died (an uncaught error, V8 out of heap), which "the worker stopped (signal SIGABRT)"
 * needs beside it. The integration tests that expect an empty stderr keep the workers quiet.
 */
export function forkWorker(moduleUrl: string, flag: string, env?: NodeJS.ProcessEnv): ChildProcess {
  return fork(fileURLToPath(moduleUrl), [flag], {
    serialization: "advanced",
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    execArgv: [],
    ...(env ? { env } : {}),
  });
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
      running.pending.delete(message.id);
      clearTimeout(entry.timer);
      entry.resolve(message);
      if (running.pending.size === 0 && current === running) {
        running.idle = setTimeout(() => running.pending.size === 0 && end(running, "idle"), idleMs);
        running.idle.unref();
      }
    });
    child.on("error", (error) => fail(running, error));
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
        const timer = setTimeout(() => {
          running.pending.delete(id);
          reject(new Error(options.timeoutMessage));
          end(running, "timeout");
        }, timeoutMs);
        timer.unref();
        running.pending.set(id, { resolve, reject, timer });
        running.child.send(make(id));
      });
    },
  };
}
