// @ts-check
/* global fetch -- Node 20 has it */
// What /events weighs for a small calendar (the bundled sample) and a 3,000-event one (five daily
// series of 600 occurrences, from a local .ics feed): the document should carry the events it
// shows, so both weigh about the same (issue 13: 973 KB of HTML for 3,000 events before).
// Alone: `BENCH_ONLY=weight npm run bench`.
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { NO_CALENDAR, serveIcs } from "./http.js";
import { table } from "./report.js";
import { startProductionServer } from "./server.js";

const DAY = 86_400_000;

/** @param {number} ms */
const icsUtc = (ms) => new Date(ms).toISOString().replace(/[-:]|\.\d+/g, "");

/** Five daily series, 300 days back and 300 ahead: 3,000 occurrences in the site's window. */
export function busyCalendar(now = Date.now()) {
  const today = Math.floor(now / DAY) * DAY;
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//events-weight//EN"];
  for (let series = 0; series < 5; series++) {
    const start = today - 300 * DAY + (14 + series) * 3_600_000;
    lines.push(
      "BEGIN:VEVENT",
      `UID:bench-daily-${series}@example.org`,
      `DTSTAMP:${icsUtc(now)}`,
      `DTSTART:${icsUtc(start)}`,
      `DTEND:${icsUtc(start + 1_800_000)}`,
      "RRULE:FREQ=DAILY;COUNT=600",
      `SUMMARY:Daily standup ${series + 1}`,
      "LOCATION:Online (link sent after RSVP)",
      "DESCRIPTION:Fifteen minutes\\, cameras optional.",
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * @typedef {object} EventsWeight
 * @property {string} calendar
 * @property {number} events Events the API lists (the calendar's window).
 * @property {number} html Bytes of /events as sent without compression.
 * @property {number} gzip
 * @property {number} br
 */

/** @param {{ logDir: string }} options @returns {Promise<EventsWeight[]>} */
export async function measureEventsWeight({ logDir }) {
  const ics = busyCalendar();
  const feed = await serveIcs(ics);
  const calendars = [
    { calendar: "small (bundled sample)", env: NO_CALENDAR },
    { calendar: "3,000 events (.ics feed)", env: { ...NO_CALENDAR, CALENDAR_ICS_URL: feed.url } },
  ];
  /** @type {EventsWeight[]} */
  const results = [];
  try {
    for (const [index, { calendar, env }] of calendars.entries()) {
      const server = await startProductionServer({ logFile: join(logDir, `events-weight-${index}.log`), env });
      try {
        const events = /** @type {{ events: unknown[] }} */ (await (await fetch(`${server.origin}/api/calendar/events`)).json()).events
          .length;
        const res = await fetch(`${server.origin}/events`, { headers: { "Accept-Encoding": "identity" } });
        if (res.status !== 200) throw new Error(`/events answered ${res.status} for the ${calendar} calendar`);
        const html = Buffer.from(await res.arrayBuffer());
        results.push({
          calendar,
          events,
          html: html.length,
          gzip: gzipSync(html, { level: 9 }).length,
          br: brotliCompressSync(html).length,
        });
      } finally {
        await server.stop();
      }
    }
  } finally {
    await feed.close();
  }
  return results;
}

/** @type {import("./report.js").Section} */
export const section = {
  name: "weight",
  title: "/events bytes",
  async run({ logDir }) {
    const results = await measureEventsWeight({ logDir });
    const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KB`;
    return {
      lines: [
        table(
          ["calendar", "events in the window", "/events HTML", "gzip", "brotli"],
          results.map((r) => [r.calendar, r.events, kb(r.html), kb(r.gzip), kb(r.br)]),
        ),
        "",
        "The document carries the events it shows: its size stays flat as the calendar grows.",
      ],
      checks: [],
      record: results,
    };
  },
};
