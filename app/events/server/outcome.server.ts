// The events outcome: the calendar as one render sees it: the events answer (or that there is none), and a version that
// changes exactly when what a page shows can change: the calendar's content (not when it was read:
// two servers reading the same calendar agree on it), the stale flag with its time, or an event
// ending (which moves it from Upcoming to Past). The server keeps one rendered answer per
// view and version (server/answer-store.ts) and hands the render this same outcome through the
// request context, so the stored bytes always match their version.
import { createContext, type RouterContextProvider } from "react-router";
import { archiveOf, archivePage } from "~/events/archive";
import { endInstant } from "~/events/filter";
import type { CalendarEvent, EventsResponse } from "~/events/model";
import { siteParts } from "~/site-parts.server";
import { EventsUnavailableError, type EventsService } from "./events.server";

export type EventsOutcome =
  | {
      ok: true;
      response: EventsResponse;
      /** `response.events` as JSON bytes, made once per read: the API's answer is built from them. */
      json: Uint8Array;
      version: string;
      /** The event with this id, if the calendar lists it. */
      eventOf: (id: string) => CalendarEvent | undefined;
      /** Whether an archive page's address parameters (app/events/archive.ts) name a page of this calendar. */
      hasArchivePage: (month: string | undefined, part: string | undefined) => boolean;
      /**
       * An instant that splits Upcoming from Past exactly as now does: the end of the latest event
       * to have ended (0 when none has). Unlike now, it is the same on every server for one version.
       */
      splitAt: number;
      /** When the version next changes by itself (the next event to end moves to Past); none when no event is left to end. */
      nextChangeAt?: number;
    }
  /** `loading`: the first read is still going after the wait the caller allowed; else it failed. */
  | { ok: false; loading: boolean; version: string };

/** While the calendar is unavailable, a stored error answer is reused for this long. */
export const UNAVAILABLE_VERSION_MS = 5_000;
/** While the first read goes on, a stored loading answer is reused for this long. */
export const LOADING_VERSION_MS = 1_000;

/** Set by the server when it renders for its store; absent for other renders, which read the cache. */
export const eventsOutcomeContext = createContext<EventsOutcome | null>(null);

type Index = { byId: Map<string, CalendarEvent>; ends: number[] };
const indexes = new WeakMap<CalendarEvent[], Index>();

function indexOf(events: CalendarEvent[]): Index {
  let index = indexes.get(events);
  if (!index) {
    const ends = events.map(endInstant).filter((end) => !Number.isNaN(end));
    index = { byId: new Map(events.map((event) => [event.id, event])), ends: ends.sort((a, b) => a - b) };
    indexes.set(events, index);
  }
  return index;
}

/** How many of the sorted instants are at or before `now` (binary search). */
function countUpTo(sorted: number[], now: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) <= now) low = middle + 1;
    else high = middle;
  }
  return low;
}

const LOADING = Symbol("loading");

/**
 * The current outcome of the service's cache. With nothing to show yet it waits for the read, as
 * getEvents does, or at most `waitMs`: past that the outcome is `loading` (the read goes on).
 */
export async function getEventsOutcome(
  service: Pick<EventsService, "getEvents">,
  { now = Date.now(), waitMs }: { now?: number; waitMs?: number } = {},
): Promise<EventsOutcome> {
  try {
    const pending = service.getEvents();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<typeof LOADING>(
      (resolve) => (timer = waitMs === undefined ? undefined : setTimeout(() => resolve(LOADING), waitMs)),
    );
    const read = await (waitMs === undefined ? pending : Promise.race([pending, deadline]).finally(() => clearTimeout(timer)));
    if (read === LOADING) {
      // The read goes on; its outcome is for later requests.
      pending.catch(() => undefined);
      return { ok: false, loading: true, version: `loading|${Math.floor(now / LOADING_VERSION_MS)}` };
    }
    const { response, eventsJsonHash, json } = read;
    const index = indexOf(response.events);
    const ended = countUpTo(index.ends, now);
    return {
      ok: true,
      response,
      json,
      version: `${eventsJsonHash}|${response.stale ? `stale ${response.updatedAt}` : "fresh"}|${ended}`,
      eventOf: (id) => index.byId.get(id),
      hasArchivePage: (month, part) => archivePage(archiveOf(response.events), month, part) !== undefined,
      splitAt: ended > 0 ? (index.ends[ended - 1] as number) : 0,
      ...(ended < index.ends.length ? { nextChangeAt: index.ends[ended] as number } : {}),
    };
  } catch (error) {
    if (!(error instanceof EventsUnavailableError)) throw error;
    return { ok: false, loading: false, version: `unavailable|${Math.floor(now / UNAVAILABLE_VERSION_MS)}` };
  }
}

/** The outcome a loader renders: the one the server rendered this answer for, or the site's cache's now. */
export async function readEventsOutcome(context: Readonly<RouterContextProvider>, waitMs?: number): Promise<EventsOutcome> {
  return context.get(eventsOutcomeContext) ?? (await getEventsOutcome(siteParts(context).events, { waitMs }));
}

/**
 * The events for a loader: the outcome the server rendered this answer for, or the cache's.
 * @throws EventsUnavailableError when there are none to show.
 */
export async function readEvents(context: Readonly<RouterContextProvider>): Promise<EventsResponse> {
  const outcome = await readEventsOutcome(context);
  if (!outcome.ok) throw new EventsUnavailableError("The events calendar is unavailable right now.");
  return outcome.response;
}
