// The saved copy: the last good read of the calendar, on disk (EVENTS_SAVED_COPY_PATH), so a restart
// during an outage still has events to show. It is read back in the calendar worker before the
// server listens (read-worker.server.ts), and written from the copy's own JSON bytes after a read. Written atomically (a temporary file, fsync, rename: two
// instances sharing the file never leave half of one), validated when read: a file that is
// corrupt, of a format this version does not read or of another calendar is ignored with one
// warning, never a crash. The file is our own, like the build: its descriptions are the forms we
// converted them to. A version reads the formats before its own that it can (SAVED_COPY_READS), so an
// upgrade during a calendar outage keeps showing the events.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";
import type { CalendarEvent } from "~/events/model";
import type { EventsLog } from "./cache.server";

/** The format this version writes; bumped when the shape below changes (3: descriptions as HTML only). */
export const SAVED_COPY_FORMAT = 3;
/**
 * Every format this version reads. A change of the shape writes a new format and says here which
 * older ones it still reads, and how (never misreading one: a format it cannot read is ignored):
 * - 3: as written.
 * - 2 (the version before the calendar worker): the same, each description also with its text and
 *   links (`descriptionText`, `descriptionLinks`), which are now read from the HTML when a page needs
 *   them, so they are dropped.
 */
export const SAVED_COPY_READS: readonly number[] = [3, 2];
/** A read is at most 25,000 events of bounded size; anything bigger is not ours. */
export const MAX_SAVED_COPY_BYTES = 32 * 1024 * 1024;

const timeSchema = z.union([z.object({ dateTime: z.string(), timeZone: z.string().optional() }), z.object({ date: z.string() })]);
const eventSchema = z.object({
  id: z.string().min(1),
  summary: z.string().optional(),
  description: z.string().optional(),
  location: z.string().optional(),
  start: timeSchema.optional(),
  end: timeSchema.optional(),
  updated: z.string().optional(),
});
// An event of format 2 is one of format 3 with two more fields, which zod's object drops.
const fileSchema = z.object({
  format: z.number().refine((format) => SAVED_COPY_READS.includes(format)),
  /** The calendarIdentityHash (never the URL itself: a private feed's URL is a secret). */
  source: z.string(),
  fetchedAt: z.iso.datetime(),
  events: z.array(eventSchema),
});

/** The calendarIdentityHash a saved copy is tagged with, from the calendar's identity (kind, address, id). */
export function hashCalendarIdentity(calendarIdentity: string): string {
  return createHash("sha256").update(calendarIdentity).digest("base64url");
}

export type SavedCopy = { events: CalendarEvent[]; fetchedAt: number };

export type SavedCopyFile = {
  /** The last good read of this calendar, if the file holds one younger than `maxAgeMs`. */
  load(now: number, maxAgeMs: number): SavedCopy | undefined;
  /** Writes a good read (its events as the copy's JSON bytes); a failure rejects with what went wrong (no path, no secret). */
  save(copy: { json: Uint8Array; fetchedAt: number }): Promise<void>;
};

export function savedCopyFile(file: string, calendarIdentityHash: string, log: EventsLog): SavedCopyFile {
  const ignore = (why: string): undefined => {
    log.warn(`[events] the saved copy ${file} ${why}: ignored (it is replaced after the next good read)`);
  };
  return {
    load(now, maxAgeMs) {
      let text: string;
      try {
        if (statSync(file).size > MAX_SAVED_COPY_BYTES) return ignore(`is larger than ${MAX_SAVED_COPY_BYTES / 1_048_576} MB`);
        text = readFileSync(file, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        return ignore(`cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
      }
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        return ignore("is not JSON");
      }
      const format = (data as { format?: unknown } | null)?.format;
      if (typeof format !== "number" || !SAVED_COPY_READS.includes(format))
        return ignore(`is of another format (${JSON.stringify(format ?? null)}, this version reads ${SAVED_COPY_READS.join(" and ")})`);
      const parsed = fileSchema.safeParse(data);
      if (!parsed.success) return ignore(`is not a valid saved copy (${parsed.error.issues[0]?.path.join(".") || "its shape"})`);
      if (parsed.data.source !== calendarIdentityHash) return ignore("holds another calendar");
      const fetchedAt = Date.parse(parsed.data.fetchedAt);
      if (now - fetchedAt > maxAgeMs) {
        log.info(`[events] the saved copy ${file} is from ${parsed.data.fetchedAt}, too old to show`);
        return undefined;
      }
      return { events: parsed.data.events as CalendarEvent[], fetchedAt };
    },
    async save({ json, fetchedAt }) {
      // The events' bytes as the read made them: nothing is serialised again in the server's process.
      const head = JSON.stringify({
        format: SAVED_COPY_FORMAT,
        source: calendarIdentityHash,
        fetchedAt: new Date(fetchedAt).toISOString(),
      }).slice(0, -1);
      const text = Buffer.concat([Buffer.from(`${head},"events":`), json, Buffer.from("}")]);
      if (text.length > MAX_SAVED_COPY_BYTES) throw new Error(`the read is larger than ${MAX_SAVED_COPY_BYTES / 1_048_576} MB`);
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        await writeFileAtomic(file, text, { fsync: true });
      } catch (error) {
        throw new Error(`${file} could not be written (${(error as NodeJS.ErrnoException).code ?? "error"})`);
      }
    },
  };
}
