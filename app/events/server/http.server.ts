// HTTP details of the events API: caching headers, ETags, JSON errors.
import { etagOf, matchesEtag } from "~/lib/etag.server";

export const EVENTS_CACHE_CONTROL = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";
/** Marks an answer built from the last good copy after the source failed. */
export const STALE_HEADER = "X-Events-Stale";

/** The body with ETag and caching headers, or 304 when the client already has it. */
export function cacheableResponse(request: Request, body: string, headers: Record<string, string>): Response {
  const etag = etagOf(body);
  const all: Record<string, string> = { "Cache-Control": EVENTS_CACHE_CONTROL, ETag: etag, ...headers };
  if (matchesEtag(request.headers.get("If-None-Match"), etag)) {
    const { "Content-Type": _type, "Content-Disposition": _disposition, ...rest } = all;
    return new Response(null, { status: 304, headers: rest });
  }
  return new Response(body, { status: 200, headers: all });
}

/** A JSON error: a sentence for people, never an upstream URL or a stack. */
export function jsonError(status: number, message: string): Response {
  return Response.json({ message }, { status, headers: { "Cache-Control": "no-store" } });
}
