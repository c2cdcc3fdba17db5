// Google Calendar event resources as events.list (singleEvents=true) sends them: every field,
// and a generator of a community's calendar at a given size (mostly occurrences of recurring
// series sharing their description, some one-offs, some virtual with Meet conference data),
// deterministic from its seed. Used by the fake API (google-calendar.ts) and the bench.
import { seededRandom, type Random } from "../support/prng";

export type GoogleEventTime = { dateTime: string; timeZone: string } | { date: string };

export type GoogleConferenceData = {
  createRequest: { requestId: string; conferenceSolutionKey: { type: "hangoutsMeet" }; status: { statusCode: "success" } };
  entryPoints: { entryPointType: "video" | "more" | "phone"; uri: string; label?: string; pin?: string; regionCode?: string }[];
  conferenceSolution: { key: { type: "hangoutsMeet" }; name: string; iconUri: string };
  conferenceId: string;
  signature: string;
};

/** One calendar#event, its keys in the order Google writes them. */
export type GoogleEventResource = {
  kind: "calendar#event";
  etag: string;
  id: string;
  status: "confirmed" | "tentative" | "cancelled";
  htmlLink: string;
  created: string;
  updated: string;
  summary?: string;
  description?: string;
  location?: string;
  creator: { email: string; displayName?: string };
  organizer: { email: string; displayName: string; self: boolean };
  start: GoogleEventTime;
  end: GoogleEventTime;
  recurringEventId?: string;
  originalStartTime?: GoogleEventTime;
  iCalUID: string;
  sequence: number;
  hangoutLink?: string;
  conferenceData?: GoogleConferenceData;
  reminders: { useDefault: boolean };
  eventType: "default";
};

export const DEFAULT_CALENDAR_ID = "c_founders.circle@group.calendar.google.com";
export const CALENDAR_TIME_ZONE = "America/New_York";
const DAY = 86_400_000;
const HOUR = 3_600_000;

const offsetFormat = new Intl.DateTimeFormat("en-US", { timeZone: CALENDAR_TIME_ZONE, timeZoneName: "longOffset" });
/** New York's offset from UTC at `ms`, in minutes (-300 or -240). */
function offsetMinutes(ms: number): number {
  const name = offsetFormat.formatToParts(ms).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

const pad = (n: number) => String(n).padStart(2, "0");
/** As Google writes a date-time in the calendar's zone: 2026-03-01T19:00:00-05:00. */
export function zonedDateTime(ms: number): string {
  const offset = offsetMinutes(ms);
  const d = new Date(ms + offset * 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
/** The instant of a New York wall-clock time on the UTC day `dayMs` (midnight UTC of that date). */
function newYorkInstant(dayMs: number, minutesOfDay: number): number {
  const guess = dayMs + minutesOfDay * 60_000 + 5 * HOUR;
  return dayMs + minutesOfDay * 60_000 - offsetMinutes(guess) * 60_000;
}
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Google's instance id suffix: the original start in UTC, 20260301T000000Z. */
const instanceSuffix = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d+/g, "");

/** Google's event ids: base32hex, lower case (a–v, 0–9), 26 characters. */
function googleId(random: Random): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuv";
  let id = "";
  for (let i = 0; i < 26; i++) id += alphabet[random.int(32)];
  return id;
}

const timed = (ms: number): GoogleEventTime => ({ dateTime: zonedDateTime(ms), timeZone: CALENDAR_TIME_ZONE });

/** The fields every event has, around what the caller gives; `updatedMs` also makes the etag. */
export function eventResource(
  calendarId: string,
  fields: Omit<Partial<GoogleEventResource>, "start" | "end"> & { id: string; start: GoogleEventTime; end: GoogleEventTime },
  updatedMs = Date.parse("2024-01-03T15:04:05.000Z"),
  createdMs = Date.parse("2024-01-02T15:04:05.000Z"),
): GoogleEventResource {
  const { id, summary, description, location, start, end, recurringEventId, originalStartTime, hangoutLink, conferenceData } = fields;
  const event: GoogleEventResource = {
    kind: "calendar#event",
    etag: `"${updatedMs * 1000}"`,
    id,
    status: fields.status ?? "confirmed",
    htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(`${id} ${calendarId}`).toString("base64url")}`,
    created: new Date(createdMs).toISOString(),
    updated: new Date(updatedMs).toISOString(),
    ...(summary === undefined ? {} : { summary }),
    ...(description === undefined ? {} : { description }),
    ...(location === undefined ? {} : { location }),
    creator: fields.creator ?? { email: "organizer@example.org" },
    organizer: fields.organizer ?? { email: calendarId, displayName: "Founders Circle", self: true },
    start,
    end,
    ...(recurringEventId === undefined ? {} : { recurringEventId }),
    ...(originalStartTime === undefined ? {} : { originalStartTime }),
    iCalUID: fields.iCalUID ?? `${recurringEventId ?? id}@google.com`,
    sequence: fields.sequence ?? 0,
    ...(hangoutLink === undefined ? {} : { hangoutLink }),
    ...(conferenceData === undefined ? {} : { conferenceData }),
    reminders: { useDefault: true },
    eventType: "default",
  };
  return event;
}

/** A Meet room as Google attaches it: the link, and conferenceData with its three entry points. */
function meetRoom(random: Random): { hangoutLink: string; conferenceData: GoogleConferenceData } {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const part = (n: number) => Array.from({ length: n }, () => letters[random.int(26)]).join("");
  const code = `${part(3)}-${part(4)}-${part(3)}`;
  const digits = (n: number) => Array.from({ length: n }, () => String(random.int(10))).join("");
  const pin = digits(13);
  const phone = `+1 ${digits(3)}-${digits(3)}-${digits(4)}`;
  return {
    hangoutLink: `https://meet.google.com/${code}`,
    conferenceData: {
      createRequest: {
        requestId: googleId(random),
        conferenceSolutionKey: { type: "hangoutsMeet" },
        status: { statusCode: "success" },
      },
      entryPoints: [
        { entryPointType: "video", uri: `https://meet.google.com/${code}`, label: `meet.google.com/${code}` },
        { entryPointType: "more", uri: `https://tel.meet/${code}?pin=${pin}`, pin },
        { regionCode: "US", entryPointType: "phone", uri: `tel:${phone.replace(/ /g, "-")}`, label: phone, pin: digits(9) },
      ],
      conferenceSolution: {
        key: { type: "hangoutsMeet" },
        name: "Google Meet",
        // Google names its Meet logo on gstatic.com here. The server never asks for conferenceData (fields=), and nothing
        // may point at a remote image: the same length of address, on a host that cannot resolve.
        iconUri: "https://logos.example.invalid/s/i/productlogos/meet_2020q4/v6/web-512dp/logo_meet_2020q4_color_2x_web.png",
      },
      conferenceId: code,
      signature: `AGirE/${Buffer.from(part(18)).toString("base64").slice(0, 22)}`,
    },
  };
}

// What a community's calendar holds. Now and then emoji, right-to-left and CJK text, as members write them.
const SERIES_TITLES = [
  "Founder Coffee ☕",
  "Speaker Series: Hiring your first ten",
  "Members Breakfast",
  "Pricing Clinic",
  "Founders Dinner 🍝",
  "Fundraising Office Hours",
  "Product Teardown Night",
  "Hot Seat: bring your hardest problem 🔥",
  "Women Founders Circle",
  "Climate Founders Meetup 🌱",
  "لقاء المؤسسين الشهري",
  "创始人早餐会",
  "スタートアップ勉強会",
  "מפגש יזמים",
  "Demo Practice Round",
  "Run Club for Founders 🏃",
];
const ONE_OFF_TITLES = [
  "Annual Gala ✨",
  "Founders Retreat",
  "Investor AMA",
  "Summer Rooftop Party 🎉",
  "Workshop: Sales for technical founders",
  "Book club: The Mom Test 📚",
  "Holiday Social 🎄",
  "Fireside chat with a repeat founder",
  "Hackathon weekend 💻",
  "Seoul founders visit 🇰🇷 서울 창업자 방문",
];
const PLACES = [
  "2 W 44th St, New York, NY 10036, USA",
  "WeWork, 115 W 18th St, New York, NY 10011, USA",
  "Ace Hotel Lobby, 20 W 29th St, New York, NY 10001, USA",
  "Brooklyn Navy Yard, Building 77, Brooklyn, NY 11205, USA",
  "Café Grumpy ☕, 224 W 20th St, New York, NY 10011",
  "渋谷スクランブルスクエア 15F, 東京都渋谷区",
  "רחוב רוטשילד 22, תל אביב",
  "مقهى الروضة، دمشق",
  "Founders Loft (4th floor), 55 Water St, New York, NY 10041",
];
const TOPICS = [
  "how to price the first hundred customers",
  "hiring before product-market fit",
  "what a seed investor reads in your deck",
  "sales for founders who would rather write code",
  "keeping a remote team close",
  "the first board meeting",
];

/** A Google Calendar redirect link, as the editor wraps every link a member pastes. */
function wrapped(url: string, random: Random): string {
  const usg = `AOvVaw${Buffer.from(String(random.next())).toString("base64url").slice(0, 22)}`;
  return `https://www.google.com/url?q=${url}&amp;sa=D&amp;source=calendar&amp;usd=2&amp;usg=${usg}`;
}

/** A rich description (about 1.5 KB) as Google Calendar's editor writes it. */
export function richDescription(title: string, random: Random): string {
  const topic = random.pick(TOPICS);
  const rsvp = `https://lu.ma/founders-${googleId(random).slice(0, 8)}`;
  const notes = `https://docs.google.com/document/d/${googleId(random)}${googleId(random).slice(0, 18)}/edit`;
  const parts = [
    `<b>${title}</b><br><br>`,
    `Join fellow founders for an evening on <i>${topic}</i>. We keep it small, candid and practical:&nbsp;bring one question you are stuck on, leave with three people who have solved it.<br><br>`,
    `<u>Agenda</u><ul><li>6:30 pm: doors open, drinks and introductions&nbsp;</li><li>7:00 pm: a short talk from a member who has been there</li><li>7:30 pm: hot seats in groups of five</li><li>8:30 pm: open conversation until we are asked to leave</li></ul>`,
    `<b>Who it is for:</b> founders and co-founders at any stage. Operators thinking about starting are welcome as guests of a member.<br><br>`,
    `RSVP (required, space is limited): <a href="${wrapped(rsvp, random)}" target="_blank">${rsvp}</a><br>`,
    `Shared notes from past sessions: <a href="${wrapped(notes, random)}" target="_blank">${notes}</a><br><br>`,
    `<i>Please read our community guidelines before you come: what is said in the room stays in the room.</i>&nbsp;Questions? Reply to the invitation or write to <a href="mailto:hello@founders.example.org" target="_blank">hello@founders.example.org</a>.<br><br>`,
    random.chance(0.3) ? `نلتقي قريباً! 🙌 / 我们很快见面！/ またお会いしましょう<br>` : `See you there! 🙌<br>`,
  ];
  return parts.join("");
}

export type GenerateOptions = {
  /** How many events in the window (exactly). */
  count: number;
  /** The middle of the two years the events span, in ms. */
  now: number;
  seed?: number;
  calendarId?: string;
};

type Series = { id: string; summary: string; description: string; location?: string; room?: ReturnType<typeof meetRoom> };

/**
 * `count` events over the year before and the year after `now`, ordered by start: about 85%
 * occurrences of recurring series (each series shares its description, and its occurrences carry
 * recurringEventId and originalStartTime; a few are moved, as exceptions), the rest one-offs (some
 * all-day, a few over several days). About one series in five is virtual, with a Meet room.
 */
export function generateGoogleEvents({
  count,
  now,
  seed = 20_261_126,
  calendarId = DEFAULT_CALENDAR_ID,
}: GenerateOptions): GoogleEventResource[] {
  const random = seededRandom(seed);
  // A day inside either end of the site's window (12 months either side of its own clock).
  const firstDay = Math.ceil((now - 364 * DAY) / DAY) * DAY;
  const lastDay = firstDay + 727 * DAY;
  const events: GoogleEventResource[] = [];
  const seriesTarget = Math.round(count * 0.85);
  const creators = ["maya@founders.example.org", "omar@founders.example.org", "li.wei@founders.example.org", "organizer@example.org"];

  while (events.length < seriesTarget) {
    const summary = random.pick(SERIES_TITLES);
    const virtual = random.chance(0.2);
    const series: Series = {
      id: googleId(random),
      summary,
      description: richDescription(summary, random),
      ...(virtual ? { location: "Google Meet", room: meetRoom(random) } : { location: random.pick(PLACES) }),
    };
    // Weekly, every two weeks, every four weeks, or every weekday; started before the window or in it.
    const step = random.pick([7, 7, 7, 14, 14, 28, 1]);
    const startDay = firstDay + (random.int(900) - 300) * DAY;
    const endDay = random.chance(0.3) ? startDay + (60 + random.int(400)) * DAY : lastDay;
    const minutes = (8 + random.int(12)) * 60 + random.pick([0, 0, 30]);
    const length = random.pick([60, 90, 120, 180]) * 60_000;
    const created = Math.min(startDay, now) - random.int(60 * DAY);
    const creator = { email: random.pick(creators) };
    for (let day = startDay; day < Math.min(endDay, lastDay) && events.length < seriesTarget; day += step * DAY) {
      if (day < firstDay) continue;
      if (step === 1 && [0, 6].includes(new Date(day).getUTCDay())) continue;
      const original = newYorkInstant(day, minutes);
      // One occurrence in 30 was moved an hour later (an exception to the series).
      const moved = random.chance(1 / 30);
      const start = moved ? original + HOUR : original;
      events.push(
        eventResource(
          calendarId,
          {
            id: `${series.id}_${instanceSuffix(original)}`,
            summary: series.summary,
            description: series.description,
            location: series.location,
            creator,
            start: timed(start),
            end: timed(start + length),
            recurringEventId: series.id,
            originalStartTime: timed(original),
            sequence: moved ? 1 : 0,
            ...series.room,
          },
          created + (moved ? 30 * DAY : DAY) + random.int(DAY),
          created,
        ),
      );
    }
  }

  while (events.length < count) {
    const summary = random.pick(ONE_OFF_TITLES);
    const day = firstDay + random.int(725) * DAY;
    const id = googleId(random);
    const created = Math.min(day, now) - DAY - random.int(90 * DAY);
    const common = { id, summary, description: richDescription(summary, random), creator: { email: random.pick(creators) } };
    if (random.chance(0.15)) {
      const days = random.pick([1, 1, 2, 3]);
      events.push(
        eventResource(
          calendarId,
          { ...common, location: random.pick(PLACES), start: { date: isoDate(day) }, end: { date: isoDate(day + days * DAY) } },
          created + DAY,
          created,
        ),
      );
      continue;
    }
    const start = newYorkInstant(day, (9 + random.int(11)) * 60);
    const virtual = random.chance(0.2);
    events.push(
      eventResource(
        calendarId,
        {
          ...common,
          ...(virtual ? { location: "Google Meet", ...meetRoom(random) } : { location: random.pick(PLACES) }),
          start: timed(start),
          end: timed(start + random.pick([60, 120, 180]) * 60_000),
        },
        created + random.int(DAY),
        created,
      ),
    );
  }
  return events.sort((a, b) => startOf(a) - startOf(b));
}

/** An event's start instant (an all-day date at UTC midnight, enough to order them). */
function startOf(event: GoogleEventResource): number {
  return "dateTime" in event.start ? Date.parse(event.start.dateTime) : Date.parse(`${event.start.date}T00:00:00Z`);
}
