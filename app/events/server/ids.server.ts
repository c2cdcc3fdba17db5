import { createHash } from "node:crypto";

const URL_SAFE = /^[A-Za-z0-9_-]{1,200}$/;

/** Ids in answers and in /api/calendar/events/:id.ics are URL-safe: letters, digits, "_" and "-". */
export function isEventId(id: string): boolean {
  return URL_SAFE.test(id);
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

/** A source's own id (Google's are already URL-safe), else a short hash of it. */
export function urlSafeId(sourceId: string): string {
  return isEventId(sourceId) ? sourceId : `h${shortHash(sourceId)}`;
}

/** One id per occurrence of an iCalendar event: UID plus the occurrence's RECURRENCE-ID (or start). */
export function occurrenceId(uid: string, occurrence: string): string {
  return shortHash(`${uid}\n${occurrence}`);
}
