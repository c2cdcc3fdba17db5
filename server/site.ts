// The Express application around the React Router handler, in the order a request meets it:
// id and log line, security headers, method and URL checks, probes, the API's rate limit, answers
// kept in memory, compression, static files, the pages and API, and an error handler that reveals
// nothing. In front of it all, the fast lane sends fresh answers from memory without Express.
import type { RequestListener } from "node:http";
import compression from "compression";
import type { RequestHandler } from "express";
import express from "express";
import { getPublicConfig } from "~/config.server";
import type { Env } from "~/env.server";
import type { Logger } from "~/logger.server";
import { finalErrorHandler } from "./errors";
import { healthRoutes, type Readiness } from "./health";
import { createFastLane } from "./fast-lane";
import { onlyReadMethods, wellFormedTarget } from "./limits";
import { requestLogging } from "./logging";
import { apiRateLimitMiddleware, createApiRateLimit } from "./rate-limit";
import { createResponseCache, type Render } from "./response-cache";
import { originOf, securityHeaders } from "./security";
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
  /** Renders a GET for the response cache; absent (development, some tests): every request renders. */
  render?: Render;
};

// Pages whose HTML depends only on the build and the configuration.
const STATIC_PATHS = new Set(["/", "/apply", "/about", "/contact", "/portal", "/sitemap.xml", "/robots.txt"]);
const STATIC_TTL_MS = 10 * 60_000;
// The events page and API follow the events cache; a second's delay is invisible to visitors.
const EVENTS_PATHS = new Set(["/events", "/api/calendar/events"]);
const EVENTS_TTL_MS = 1_000;

function responseTtl(pathname: string): number | undefined {
  if (STATIC_PATHS.has(pathname)) return STATIC_TTL_MS;
  if (EVENTS_PATHS.has(pathname)) return EVENTS_TTL_MS;
  return undefined;
}

/** The HTTP server's request listener. */
export function createSite({ env, logger, handler, readiness, clientRoot, devMiddleware, render }: SiteOptions): RequestListener {
  const app = express();
  app.disable("x-powered-by");
  // Whether X-Forwarded-For/-Proto are believed (req.ip, req.secure): only as far as TRUST_PROXY says.
  app.set("trust proxy", env.TRUST_PROXY);

  const frameOrigin = originOf(getPublicConfig().calendar.embedUrl);
  const formOrigin = originOf(getPublicConfig().contactSurveyUrl);
  app.use(requestLogging(logger));
  app.use(
    securityHeaders({
      frameOrigins: frameOrigin ? [frameOrigin] : [],
      formOrigins: formOrigin ? [formOrigin] : [],
      development: env.NODE_ENV === "development",
    }),
  );
  app.use(onlyReadMethods, wellFormedTarget);
  app.use(healthRoutes(readiness));
  const rateLimit = createApiRateLimit(env.RATE_LIMIT_PER_MINUTE);
  app.use(apiRateLimitMiddleware(rateLimit));
  // Cached pages and API answers go out first: they carry their own encoding and need no file lookup.
  const cache = render ? createResponseCache({ render, ttlFor: responseTtl, nonceOf: (res) => String(res.locals.cspNonce) }) : undefined;
  const fastLane = cache ? createFastLane({ app, cache, rateLimit, logger }) : undefined;
  if (cache && fastLane) app.use(fastLane.learn, cache.middleware);
  // Other dynamic answers are compressed here; precompressed files and cached answers already
  // carry Content-Encoding, which compression() never encodes twice.
  app.use(compression());
  if (devMiddleware) app.use(devMiddleware);
  if (clientRoot) app.use(staticFiles(clientRoot));
  app.use(handler);
  app.use(finalErrorHandler);
  return fastLane ? fastLane.listener : app;
}
