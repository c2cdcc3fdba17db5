// The server bundle's entry (built by Vite into build/server/index.js, loaded by server.js):
// the parsed environment, the process logger, the React Router handler, and the pieces server.js
// assembles into the running process.
import { isMainThread } from "node:worker_threads";
import { createRequestHandler } from "@react-router/express";
import { createRequestHandler as createFetchHandler, RouterContextProvider } from "react-router";
import { warnAboutSiteUrl } from "~/config.server";
import { getEnv } from "~/env.server";
import { eventsOutcomeContext, type EventsOutcome } from "~/events/server/snapshot.server";
import { getLogger } from "~/logger.server";
import { requestContext } from "~/request-context.server";

// The share card worker loads its own small chunk; were it ever to load this bundle (an app
// module imported by the drawing code), it would start a second server's worth of state.
if (!isMainThread) throw new Error("The server bundle was loaded in a worker thread: the share card worker must import no app module.");

// Parsed at import so a bad configuration stops start-up, not the first request.
export const env = getEnv();
export const logger = getLogger();
warnAboutSiteUrl(env, logger);

/** The React Router request handler; each request's context carries its id and logger. */
export const app = createRequestHandler({
  build: () => import("virtual:react-router/server-build"),
  getLoadContext(req) {
    const context = new RouterContextProvider();
    const requestId = req.id ?? "unknown";
    context.set(requestContext, { requestId, log: logger.child({ reqId: requestId }) });
    return context;
  },
});

const renderFetch = createFetchHandler(() => import("virtual:react-router/server-build"));

/** One GET rendered for the answer store, with the calendar outcome its version was taken from. */
export function render(url: string, events?: EventsOutcome): Promise<Response> {
  const context = new RouterContextProvider();
  context.set(requestContext, { requestId: "answer-store", log: logger });
  if (events) context.set(eventsOutcomeContext, events);
  return renderFetch(new Request(new URL(url, "http://localhost")), context);
}

export { createSite } from "./site";
export { warmShareImages } from "~/events/server/share-images.server";
export { createHttpServer, drainFlag, serve } from "./lifecycle";
