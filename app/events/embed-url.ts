// The calendar embed on /events (spec §9: 600 px high, America/New_York).
import { EVENTS_TIME_ZONE } from "./time";
export const CALENDAR_EMBED = { height: 600, timeZone: EVENTS_TIME_ZONE } as const;

/** Google Calendar's embed page for a calendar id, in New York time. */
export function googleCalendarEmbedUrl(calendarId: string): string {
  const url = new URL("https://calendar.google.com/calendar/embed");
  url.searchParams.set("src", calendarId);
  url.searchParams.set("ctz", CALENDAR_EMBED.timeZone);
  return url.toString();
}
