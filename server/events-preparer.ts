// Keeps the events answers prepared for the calendar's current version: after every read (a change,
// a failure that turns the copy stale, a recovery that turns it fresh again with the same events, the
// saved copy restored at start), and when the version changes by itself (the next event ends), the
// answer store makes the events list, its past tab and the API for that version before a visitor
// asks (server/answer-store.ts, prepareEvents: nothing when they are made already). A failure is
// logged once, when preparing starts failing, and once when it works again: the next visitor then
// renders what was not made, as without preparing.
import type { Logger } from "~/logger.server";
import type { AnswerStore } from "./answer-store";

/** Node's longest timer (about 24.8 days): a later end is prepared for when a read comes first, or at the next timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Returns what to call after each calendar read: it prepares on the next turn, once the read's
 * outcome is in the cache, and resolves when that is done, whichever way (tests wait for it); and
 * `stop`, for a site that closes: no timer of its is left to prepare again.
 */
export function eventsPreparer(
  store: Pick<AnswerStore, "prepareEvents">,
  logger: Pick<Logger, "error" | "info">,
): (() => Promise<void>) & { stop: () => void } {
  let failing = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  function prepare(): Promise<void> {
    clearTimeout(timer);
    return store.prepareEvents().then(
      (nextChangeAt) => {
        if (failing) logger.info("the events answers are prepared again after each calendar change");
        failing = false;
        if (nextChangeAt === undefined || stopped) return;
        timer = setTimeout(() => void prepare(), Math.min(MAX_TIMER_MS, Math.max(0, nextChangeAt - Date.now()) + 1));
        timer.unref();
      },
      (error: unknown) => {
        if (!failing) logger.error({ err: error }, "preparing the events answers failed: visitors' requests render them meanwhile");
        failing = true;
      },
    );
  }

  // A failed read is told before the cache marks its copy stale: prepare once the read has settled.
  const afterRead = () => new Promise<void>((resolve) => setImmediate(() => void prepare().then(resolve)));
  return Object.assign(afterRead, {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  });
}
