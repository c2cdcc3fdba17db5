// The site's request listener. Every request first meets the front chain, on Node's own request and
// response: its id and log line, security headers, method and URL checks, the probes, the rate
// limits, the content editor (/admin), then the stored answers (pages, API answers, files). Express gets only what is left: React
// Router's own requests (route discovery; every page in development) and the error answers. A stored
// answer thus costs no Express routing, which under a flood of junk is most of the server's time.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import compression from "compression";
import type { RequestHandler } from "express";
import express from "express";
import { getPublicConfig } from "~/config.server";
import { site } from "~/content";
import type { Env } from "~/env.server";
import type { Logger } from "~/logger.server";
import { adminEditor } from "./admin";
import { createAnswerStore, type AnswerStore, type Render } from "./answer-store";
import { clientOf, type Trust } from "./client";
import { answerError, finalErrorHandler } from "./errors";
import { healthRoutes, type Readiness } from "./health";
import { onlyReadMethods, wellFormedTarget } from "./limits";
import { requestLogging } from "./logging";
import { rateLimits } from "./rate-limit";
import { cspFor, originOf, securityHeaders, type CspOptions } from "./security";
import { inOrder, type Step } from "./step";

export type SiteOptions = {
  env: Env;
  logger: Logger;
  /** The React Router request handler. */
  handler: RequestHandler;
  readiness: Readiness;
  /** The client build, served from memory by the answer store; absent in development, where Vite serves the files. */
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
  // Express compiles the setting; the front chain asks the same function (server/client.ts).
  app.set("trust proxy", env.TRUST_PROXY);
  const client = clientOf(app.get("trust proxy fn") as Trust, Boolean(env.TRUST_PROXY));

  const frameOrigin = originOf(getPublicConfig().calendar.embedUrl);
  const formOrigin = originOf(getPublicConfig().contactSurveyUrl);
  const cspOptions: CspOptions = {
    frameOrigins: frameOrigin ? [frameOrigin] : [],
    formOrigins: formOrigin ? [formOrigin] : [],
    development: env.NODE_ENV === "development",
  };
  const store = render
    ? createAnswerStore({
        render,
        csp: cspFor(cspOptions),
        clientRoot,
        secure: client.secure,
        onRender: (url) => logger.debug({ url }, "rendered an answer"),
      })
    : undefined;
  const front: Step[] = [
    requestLogging(logger),
    ...securityHeaders(cspOptions, client.secure),
    onlyReadMethods,
    wellFormedTarget(client.trustsProxy),
    healthRoutes(readiness),
    ...rateLimits({ pagesPerMinute: env.PAGE_RATE_LIMIT_PER_MINUTE, apiPerMinute: env.RATE_LIMIT_PER_MINUTE, address: client.address }),
    adminEditor({
      repository: env.CONTENT_REPOSITORY,
      branch: env.CONTENT_BRANCH,
      siteUrl: env.SITE_URL,
      siteName: site.name,
      secure: client.secure,
    }),
    ...(store ? [store.step] : []),
  ];

  // Dynamic answers are compressed here; stored answers already carry Content-Encoding.
  app.use(compression());
  if (devMiddleware) app.use(devMiddleware);
  app.use(handler);
  app.use(finalErrorHandler);

  const toExpress = (req: IncomingMessage, res: ServerResponse, error?: unknown) =>
    error === undefined ? app(req, res) : answerError(error, req, res);
  return { listener: inOrder(front, toExpress), store };
}
