// The last good read of the calendar, on disk (EVENTS_SNAPSHOT_PATH), so a restart during an
// outage still has events to show. Written atomically (a temporary file, fsync, rename: two
// instances sharing the file never leave half of one), validated when read: a file that is
// corrupt, of another format or of another calendar is ignored with one warning, never a crash.
// The file is our own, like the build: its descriptions are the forms we converted them to.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";
import type { CalendarEvent } from "~/events/model";
import type { EventsLog, Snapshot } from "./cache.server";

/** Bumped when the shape below changes: an older file is then ignored, not misread. */
export const SNAPSHOT_FORMAT = 2;
/** A read is at most 25,000 events of bounded size; anything bigger is not ours. */
export const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

const timeSchema = z.union([z.object({ dateTime: z.string(), timeZone: z.string().optional() }), z.object({ date: z.string() })]);
const eventSchema = z.object({
  id: z.string().min(1),
  summary: z.string().optional(),
  description: z.string().optional(),
  descriptionText: z.string().optional(),
  descriptionLinks: z.array(z.object({ href: z.string(), text: z.string() })).optional(),
  location: z.string().optional(),
  start: timeSchema.optional(),
  end: timeSchema.optional(),
  updated: z.string().optional(),
});
const fileSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  /** A digest of the source's identity (never the URL itself: a private feed's URL is a secret). */
  source: z.string(),
  fetchedAt: z.iso.datetime(),
  events: z.array(eventSchema),
});

/** The digest a snapshot is tagged with, from what identifies the calendar (kind, address, id). */
export function sourceDigest(identity: string): string {
  return createHash("sha256").update(identity).digest("base64url");
}

export type SnapshotFile = {
  /** The last good read of this calendar, if the file holds one younger than `maxAgeMs`. */
  load(now: number, maxAgeMs: number): Pick<Snapshot, "events" | "fetchedAt"> | undefined;
  /** Writes a good read; failures are logged, never thrown (serving goes on without the file). */
  save(snapshot: Snapshot): Promise<void>;
};

export function snapshotFile(file: string, source: string, log: EventsLog): SnapshotFile {
  const ignore = (why: string): undefined => {
    log.warn(`[events] the snapshot file ${file} ${why}: ignored (it is replaced after the next good read)`);
  };
  return {
    load(now, maxAgeMs) {
      let text: string;
      try {
        if (statSync(file).size > MAX_SNAPSHOT_BYTES) return ignore(`is larger than ${MAX_SNAPSHOT_BYTES / 1_048_576} MB`);
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
      if (format !== SNAPSHOT_FORMAT)
        return ignore(`is of another format (${JSON.stringify(format ?? null)}, this version reads ${SNAPSHOT_FORMAT})`);
      const parsed = fileSchema.safeParse(data);
      if (!parsed.success) return ignore(`is not a valid snapshot (${parsed.error.issues[0]?.path.join(".") || "its shape"})`);
      if (parsed.data.source !== source) return ignore("holds another calendar");
      const fetchedAt = Date.parse(parsed.data.fetchedAt);
      if (now - fetchedAt > maxAgeMs) {
        log.info(`[events] the snapshot file ${file} is from ${parsed.data.fetchedAt}, too old to show`);
        return undefined;
      }
      return { events: parsed.data.events as CalendarEvent[], fetchedAt };
    },
    async save(snapshot) {
      const text = JSON.stringify({
        format: SNAPSHOT_FORMAT,
        source,
        fetchedAt: new Date(snapshot.fetchedAt).toISOString(),
        events: snapshot.events,
      });
      if (Buffer.byteLength(text) > MAX_SNAPSHOT_BYTES) {
        log.warn(`[events] this read is larger than ${MAX_SNAPSHOT_BYTES / 1_048_576} MB: not written to the snapshot file`);
        return;
      }
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        await writeFileAtomic(file, text, { fsync: true });
      } catch (error) {
        log.warn(`[events] the snapshot file ${file} could not be written (${(error as NodeJS.ErrnoException).code ?? "error"})`);
      }
    },
  };
}
