// The window of events the server reads, and the order it answers them in. Zones and instants are
// in ~/events/time.
import type { EventTime } from "~/events/model";
import { instantOf } from "~/events/time";

/** A span of time; `now` (when given) splits it into past and upcoming. */
export type Window = { start: Date; end: Date; now?: Date };

/** From 12 months ago to 12 months ahead of `now`. */
export function eventsWindow(now: Date): Window {
  const start = new Date(now);
  start.setUTCMonth(start.getUTCMonth() - 12);
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + 12);
  return { start, end, now: new Date(now) };
}

/** Sort key of an event time: the shared instantOf (all-day at New York midnight), unparseable last. */
export function startInstant(time: EventTime | undefined): number {
  const instant = instantOf(time);
  return Number.isNaN(instant) ? Number.POSITIVE_INFINITY : instant;
}
