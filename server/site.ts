// The Express application around the React Router handler, in the order a request meets it:
// id and log line, security headers, method and URL checks, probes, the rate limits, stored pages
// and API answers, compression, static files, React Router (data requests, development) and an
// error handler that reveals nothing.
import type { RequestListener } from "node:http";
import compression from "compression";
import type { RequestHandler } from "express";
import express from "express";
import { getPublicConfig } from "~/config.server";
import type { Env } from "~/env.server";
import type { Logger } from "~/logger.server";
import { createAnswerStore, type AnswerStore, type Render } from "./answer-store";
import { finalErrorHandler } from "./errors";
import { healthRoutes, type Readiness } from "./health";
import { onlyReadMethods, wellFormedTarget } from "./limits";
import { requestLogging } from "./logging";
import { rateLimits } from "./rate-limit";
import { cspFor, originOf, securityHeaders, type CspOptions } from "./security";
import { staticFiles } from "./static-files";

export type SiteOptions = {
  env: Env;
  logger: Logger;
  /** The React Router request handler. */
  handler: RequestHandler;
  readiness: Readiness;
  /** The client build to serve; absent in development, where Vite serves the files. */
  clientRoot?: string;
  /** Vite's dev middleware (development only). */
  devMiddleware?: RequestHandler;
  /** Renders a GET for the answer store; absent (development, some tests): every request renders. */
  render?: Render;
};

export type Site = { listener: RequestListener; store?: AnswerStore };

/** The HTTP server's request listener, and the store of rendered answers (to warm before listening). */
export function createSite({ env, logger, handler, readiness, clientRoot, devMiddleware, render }: SiteOptions): Site {
  const app = express();
  app.disable("x-powered-by");
  // Whether X-Forwarded-For/-Proto are believed (req.ip, req.secure): only as far as TRUST_PROXY says.
  app.set("trust proxy", env.TRUST_PROXY);

  const frameOrigin = originOf(getPublicConfig().calendar.embedUrl);
  const formOrigin = originOf(getPublicConfig().contactSurveyUrl);
  const cspOptions: CspOptions = {
    frameOrigins: frameOrigin ? [frameOrigin] : [],
    formOrigins: formOrigin ? [formOrigin] : [],
    development: env.NODE_ENV === "development",
  };
  app.use(requestLogging(logger));
  app.use(securityHeaders(cspOptions));
  app.use(onlyReadMethods, wellFormedTarget);
  app.use(healthRoutes(readiness));
  app.use(rateLimits({ pagesPerMinute: env.PAGE_RATE_LIMIT_PER_MINUTE, apiPerMinute: env.RATE_LIMIT_PER_MINUTE }));
  // Stored answers carry their own encoding and need no file lookup.
  const store = render
    ? createAnswerStore({ render, csp: cspFor(cspOptions), clientRoot, onRender: (url) => logger.debug({ url }, "rendered an answer") })
    : undefined;
  if (store) app.use(store.middleware);
  // Other dynamic answers are compressed here; precompressed files and stored answers already
  // carry Content-Encoding, which compression() never encodes twice.
  app.use(compression());
  if (devMiddleware) app.use(devMiddleware);
  if (clientRoot) app.use(staticFiles(clientRoot));
  app.use(handler);
  app.use(finalErrorHandler);
  return { listener: app, store };
}
