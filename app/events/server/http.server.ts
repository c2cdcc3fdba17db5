// HTTP details of the events API that are the route's own: the stale marker and JSON errors.
// How long an answer may be kept (and its ETag) is the answer store's decision (server/cache-policy.ts).

/** Marks an answer built from the last good copy after the source failed. */
export const STALE_HEADER = "X-Events-Stale";

/** A JSON error: a sentence for people, never an upstream URL or a stack. */
export function jsonError(status: number, message: string): Response {
  return Response.json({ message }, { status });
}
