// @ts-check
// Everything the bench starts (server, bare server, Chromium) registers its stop here, so a
// failure or Ctrl-C never leaves a process listening.
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";

/** @type {Set<() => Promise<void> | void>} */
const stops = new Set();
/** @type {Set<() => void>} */
const lastResorts = new Set();

/**
 * Registers an async stop, run on normal finish, failure and signals, plus a synchronous
 * last resort (e.g. SIGKILL) for when the process exits before the async stop finished.
 * @param {() => Promise<void> | void} stop
 * @param {() => void} [lastResort]
 * @returns {() => Promise<void>} Stops now and unregisters.
 */
export function onCleanup(stop, lastResort) {
  stops.add(stop);
  if (lastResort) lastResorts.add(lastResort);
  return async () => {
    stops.delete(stop);
    try {
      await stop();
    } finally {
      if (lastResort) lastResorts.delete(lastResort);
    }
  };
}

/**
 * Registers a child process's stop: SIGTERM, then SIGKILL if it has not exited after `graceMs`
 * (and SIGKILL as the last resort when the bench itself exits first).
 * @param {import("node:child_process").ChildProcess} child
 * @param {number} graceMs
 * @returns {{ exited: Promise<unknown>, stop: () => Promise<void> }}
 */
export function stopChildOnCleanup(child, graceMs) {
  const exited = once(child, "exit");
  const running = () => child.exitCode === null && child.signalCode === null;
  const kill = () => {
    if (running()) child.kill("SIGKILL");
  };
  const stop = onCleanup(async () => {
    if (!running()) return;
    child.kill("SIGTERM");
    const stopped = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!stopped) {
      kill();
      await exited;
    }
  }, kill);
  return { exited, stop };
}

/** Runs every registered stop, newest first; errors are reported, not thrown. */
export async function cleanupAll() {
  const pending = [...stops].reverse();
  stops.clear();
  for (const stop of pending) {
    try {
      await stop();
    } catch (error) {
      console.error(`bench: cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  lastResorts.clear();
}

let interrupted = false;

/** Stops everything on SIGINT/SIGTERM, then exits 130/143. */
export function handleSignals() {
  /** @param {NodeJS.Signals} signal */
  const onSignal = (signal) => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\nbench: ${signal}, stopping what the bench started…`);
    void cleanupAll().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("exit", () => {
    for (const lastResort of lastResorts) lastResort();
  });
}
