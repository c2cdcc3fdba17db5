// The site's request listener, one chain on Node's own request and response: the request's id and
// log line, security headers, method and URL checks, the probes, the rate limits, then the stored
// answers (pages, API answers, files), the content editor at /admin (and its GitHub sign-in) first. What is left (React Router's route discovery; in development
// Vite's files and every page) goes to React Router's listener; every error, to answerError.
import type { IncomingMessage, ServerResponse } from "node:http";
import { getPublicConfig } from "~/config.server";
import { site } from "~/content";
import type { Env } from "~/env.server";
import { eventsSavedCopyPath, getEventsStatus, onCalendarRead } from "~/events/server/events.server";
import { shareImages, type ShareImagesStats } from "~/events/server/share-images.server";
import type { Logger } from "~/logger.server";
import { adminEditor } from "./admin";
import { createAnswerStore, type AnswerStore, type BudgetStats, type Render } from "./answer-store";
import { clientOf, trustOf } from "./client";
import { answerError } from "./errors";
import { eventsPreparer } from "./events-preparer";
import { healthRoutes, type Readiness } from "./health";
import { onlyReadMethods, wellFormedTarget } from "./limits";
import { requestLogging } from "./logging";
import { githubSignIn } from "./github-oauth";
import { createMetrics, type Metrics } from "./metrics";
import { rateLimits } from "./rate-limit";
import { cspFor, originOf, securityHeaders, type CspOptions } from "./security";
import { inOrder, type Step } from "./step";

/** A Node request listener that may answer asynchronously (React Router's). */
export type Listener = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export type SiteOptions = {
  env: Env;
  logger: Logger;
  /** React Router's request listener: the chain's last step. */
  handler: Listener;
  readiness: Readiness;
  /** The client build, served from memory by the answer store; absent in development, where Vite serves the files. */
  clientRoot?: string;
  /** Vite's dev middleware (development only; connect-style, a step like the others). */
  devMiddleware?: Step;
  /** Renders a GET for the answer store; absent (development, some tests): every request renders. */
  render?: Render;
};

export type Site = {
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  store?: AnswerStore;
  /** The process's metrics, when METRICS_PORT asks for them (served apart: server/metrics-server.ts). */
  metrics?: Metrics;
};

const MB = 1024 * 1024;

/** The HTTP server's request listener, and the store of rendered answers (to warm before listening). */
export function createSite({ env, logger, handler, readiness, clientRoot, devMiddleware, render }: SiteOptions): Site {
  // Whether X-Forwarded-For/-Proto/-Host are believed: each only from a hop TRUST_PROXY trusts.
  const client = clientOf(trustOf(env.TRUST_PROXY));

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
        budgets: { pages: env.STORED_PAGES_MB * MB },
        // The cards' own store holds their bytes, within STORED_IMAGES_MB; the store answers from them.
        shareCards: { png: (event) => shareImages().imageFor(event), stats: () => imagesBudget(shareImages().stats()) },
      })
    : undefined;
  // Every read can change the version (a change, stale, fresh again): its answers are made before a visitor asks.
  if (store) onCalendarRead(eventsPreparer(store, logger));
  const metrics = env.METRICS_PORT === undefined ? undefined : siteMetrics(store);
  // "Sign in with GitHub" for the editor: only with an OAuth app and a repository to edit.
  const signIn =
    env.GITHUB_OAUTH_CLIENT_ID && env.GITHUB_OAUTH_CLIENT_SECRET && env.CONTENT_REPOSITORY
      ? githubSignIn({
          clientId: env.GITHUB_OAUTH_CLIENT_ID,
          clientSecret: env.GITHUB_OAUTH_CLIENT_SECRET,
          scope: env.GITHUB_OAUTH_SCOPE,
          githubUrl: env.GITHUB_OAUTH_URL,
          siteUrl: env.SITE_URL,
          client,
          logger,
        })
      : undefined;
  const steps: Step[] = [
    requestLogging(logger, metrics?.responded),
    ...securityHeaders(cspOptions, client.secure),
    onlyReadMethods,
    wellFormedTarget(client.forwardedHost),
    healthRoutes(readiness),
    rateLimits({
      pagesPerMinute: env.PAGE_RATE_LIMIT_PER_MINUTE,
      apiPerMinute: env.RATE_LIMIT_PER_MINUTE,
      speculativePerMinute: env.SPECULATIVE_RATE_LIMIT_PER_MINUTE,
      address: client.address,
      onRefused: metrics?.refused,
    }),
    ...(signIn ? [signIn] : []),
    adminEditor({
      repository: env.CONTENT_REPOSITORY,
      branch: env.CONTENT_BRANCH,
      siteUrl: env.SITE_URL,
      siteName: site.name,
      secure: client.secure,
      signIn: signIn !== undefined,
    }),
    ...(store ? [store.step] : []),
    ...(devMiddleware ? [devMiddleware] : []),
  ];

  const last = (req: IncomingMessage, res: ServerResponse, error?: unknown) => {
    if (error !== undefined) return answerError(error, req, res);
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((thrown: unknown) => answerError(thrown, req, res));
  };
  return { listener: inOrder(steps, last), store, metrics };
}

/** The share cards' store as the images' budget of the stored answers (a card drawn is its render). */
function imagesBudget(cards: ShareImagesStats): BudgetStats {
  return {
    hits: cards.hits,
    misses: cards.misses,
    renders: cards.drawn,
    evictions: cards.evictions,
    bytes: cards.keptBytes,
    entries: cards.kept,
    maxBytes: cards.maxBytes,
  };
}

/** The metrics, reading the calendar, the store and the share cards when scraped. */
function siteMetrics(store: AnswerStore | undefined): Metrics {
  const metrics = createMetrics({
    calendar: getEventsStatus,
    savedCopyPath: eventsSavedCopyPath(),
    store: store?.stats,
    shareCards: () => shareImages().stats(),
  });
  onCalendarRead(metrics.calendarRead);
  return metrics;
}
