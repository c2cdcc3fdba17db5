// The server bundle's entry (built by Vite into build/server/index.js, loaded by server.js): the
// parsed environment, the process logger, React Router's one request handler (for the answer
// store's renders and, through node-fetch-server, as the chain's last step), and the pieces
// server.js assembles into the running process.
import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestListener } from "@mjackson/node-fetch-server";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { warnAboutSiteUrl } from "~/config.server";
import { getEnv, warnAboutOldNames } from "~/env.server";
import { eventsOutcomeContext, type EventsOutcome } from "~/events/server/outcome.server";
import { getLogger } from "~/logger.server";
import { requestContext } from "~/request-context.server";
import { sitePartsContext, type SiteParts } from "~/site-parts.server";
import { errorResponse } from "./errors";

// The worker processes (the calendar worker, the share card worker: started with their flag,
// --founders-circle-…-worker) load their own chunks; were one ever to load this bundle (an app
// module imported by a worker's code), it would start a second server's worth of state.
if (process.argv.some((arg) => /^--founders-circle-.+-worker$/.test(arg))) {
  throw new Error("The server bundle was loaded in a worker process: a worker must import no module of the server's.");
}

// Parsed at import so a bad configuration stops start-up, not the first request. The one read of the
// process's environment: server.js hands it to createSite, which hands each part what it needs.
export const env = getEnv();
export const logger = getLogger();
warnAboutSiteUrl(env, logger);
warnAboutOldNames(env, logger);

const handle = createRequestHandler(() => import("virtual:react-router/server-build"));

/** A context for one request: the site it is for, its id and the logger its lines go to. */
function contextFor(parts: SiteParts, requestId: string, log = logger.child({ reqId: requestId })): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(sitePartsContext, parts);
  context.set(requestContext, { requestId, log });
  return context;
}

type Carried = { requestId: string; parts: SiteParts };

// The front chain's request id and site, carried to React Router's request (a fetch Request has no place for them).
const carried = new AsyncLocalStorage<Carried>();
const listener = createRequestListener(
  (request) => {
    const store = carried.getStore();
    if (!store) throw new Error("A request reached React Router without its site (call app(), not the listener).");
    return handle(request, contextFor(store.parts, store.requestId));
  },
  {
    // React Router answers its own errors (error boundaries); this is for a failure of the handler itself.
    onError(error) {
      logger.error({ err: error, reqId: carried.getStore()?.requestId }, "React Router failed to answer");
      return errorResponse(500, "text");
    },
  },
);

/** React Router's Node listener, the chain's last step (server/site.ts), for the site whose parts it is given. */
export function app(req: IncomingMessage, res: ServerResponse, parts: SiteParts): Promise<void> {
  // Its type says void; it is async, and a failure before React Router (a URL it cannot build) must reach answerError.
  return carried.run({ requestId: req.id ?? "unknown", parts }, () => Promise.resolve(listener(req, res)));
}

/** One GET rendered for the answer store of the site whose parts it is given, with the calendar outcome its version was taken from. */
export function render(url: string, parts: SiteParts, events?: EventsOutcome): Promise<Response> {
  // A stored render serves many requests: its lines belong to none of them.
  const context = contextFor(parts, "answer-store", logger);
  if (events) context.set(eventsOutcomeContext, events);
  return handle(new Request(new URL(url, "http://localhost")), context);
}

export { createSite } from "./site";
export { parseEnv } from "~/env.server";
export { createHttpServer, drainFlag, serve } from "./lifecycle";
export { serveMetrics } from "./metrics-server";
