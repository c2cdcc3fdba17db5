// Probes for load balancers and orchestrators, answered in the front chain before the rate limits
// and any page machinery: /healthz (the process is alive) and /readyz (it serves; 503 once it is
// shutting down), with the events source's state. Never cached; no URLs, ids or keys.
import type { ServerResponse } from "node:http";
import type { EventsStatus } from "~/events/server/events.server";
import { pathOfTarget } from "./errors";
import type { Step } from "./step";

export type Readiness = { draining: () => boolean; startedAt: number };

const iso = (time: number | undefined) => (time === undefined ? null : new Date(time).toISOString());

export function readinessBody(events: EventsStatus, draining: boolean, uptimeSeconds: number) {
  return {
    status: draining ? "draining" : "ready",
    uptimeSeconds,
    events: {
      source: events.source,
      state: events.state,
      lastSuccessAt: iso(events.lastSuccessAt),
      lastFailureAt: iso(events.lastFailureAt),
      consecutiveFailures: events.consecutiveFailures,
      // After a failure, when the calendar will be asked again (no visitor can make it sooner).
      nextAttemptAt: iso(events.nextAttemptAt),
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(json),
    "Cache-Control": "no-store",
  });
  res.end(json);
}

/** The probes; `events` is the site's calendar state (reads nothing upstream). */
export function healthRoutes({ draining, startedAt }: Readiness, events: () => EventsStatus): Step {
  return (req, res, next) => {
    const path = pathOfTarget(req.url);
    if (path === "/healthz") return sendJson(res, 200, { status: "ok" });
    // Ready whatever the calendar does: the pages and the API answer (stale, or with their error state).
    if (path === "/readyz") {
      const body = readinessBody(events(), draining(), Math.round((Date.now() - startedAt) / 1000));
      return sendJson(res, draining() ? 503 : 200, body);
    }
    next();
  };
}
