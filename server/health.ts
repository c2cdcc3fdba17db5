// Probes for load balancers and orchestrators, answered by Express before any page machinery:
// /healthz (the process is alive) and /readyz (it serves; 503 once it is shutting down), with the
// events source's state. Never cached; no URLs, ids or keys.
import type { Request, Response, Router } from "express";
import express from "express";
import { getEventsStatus, type EventsStatus } from "~/events/server/events.server";

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
    },
  };
}

export function healthRoutes({ draining, startedAt }: Readiness): Router {
  const router = express.Router();
  const noStore = (res: Response) => res.set("Cache-Control", "no-store");

  router.get("/healthz", (_req: Request, res: Response) => {
    noStore(res).json({ status: "ok" });
  });

  // Ready whatever the calendar does: the pages and the API answer (stale, or with their error state).
  router.get("/readyz", (_req: Request, res: Response) => {
    const body = readinessBody(getEventsStatus(), draining(), Math.round((Date.now() - startedAt) / 1000));
    noStore(res)
      .status(draining() ? 503 : 200)
      .json(body);
  });

  return router;
}
