// @ts-check
// Everything the bench starts (server, bare server, Chromium) registers its stop here, so a
// failure or Ctrl-C never leaves a process listening.

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
