// The site's request listener, one chain on Node's own request and response: the request's id and
// log line, security headers, method and URL checks, the probes, the rate limits, then the stored
// answers (pages, API answers, files), the content editor at /admin (and its GitHub sign-in) first. What is left (React Router's route discovery; in development
// Vite's files and every page) goes to React Router's listener; every error, to answerError.
// The site's parts (its calendar, its share cards, its public configuration) are made here from the
// configuration it is given, and reach React Router's loaders through the load context; the listeners
// the site sets on them are its own, removed by close().
import type { IncomingMessage, ServerResponse } from "node:http";
import { publicConfigOf } from "~/config.server";
import { site } from "~/content";
import type { Env } from "~/env.server";
import type { EventsLog } from "~/events/server/cache.server";
import { createEventsService } from "~/events/server/events.server";
import { getEventsOutcome, type EventsOutcome } from "~/events/server/outcome.server";
import { siteShareImages, warmShareImages, type ShareImagesStats } from "~/events/server/share-images.server";
import { scrubberFor, type Logger } from "~/logger.server";
import type { SiteParts } from "~/site-parts.server";
import { adminEditor } from "./admin";
import { createAnswerStore, type AnswerStore, type BudgetStats } from "./answer-store";
import { clientOf, trustOf } from "./client";
import { answerError } from "./errors";
import { eventsPreparer } from "./events-preparer";
import { healthRoutes, type Readiness } from "./health";
import { onlyReadMethods, wellFormedTarget } from "./limits";
import { requestLogging } from "./logging";
import { githubSignIn, isSignInPath } from "./github-oauth";
import { createMetrics, type Metrics } from "./metrics";
import { adminOff, noindexEveryAnswer } from "./preview-instance";
import { rateLimits } from "./rate-limit";
import { cspFor, originOf, securityHeaders, type CspOptions } from "./security";
import { inOrder, type Step } from "./step";

/** React Router's Node listener, given the parts of the site it answers for (its load context carries them). */
export type Handler = (req: IncomingMessage, res: ServerResponse, parts: SiteParts) => void | Promise<void>;

/** Renders a GET for the answer store, for this site, with the calendar outcome its version is taken from. */
export type SiteRender = (url: string, parts: SiteParts, events?: EventsOutcome) => Promise<globalThis.Response>;

export type SiteOptions = {
  env: Env;
  logger: Logger;
  /** React Router's request listener: the chain's last step. */
  handler: Handler;
  readiness: Readiness;
  /** The client build, served from memory by the answer store; absent in development, where Vite serves the files. */
  clientRoot?: string;
  /** Vite's dev middleware (development only; connect-style, a step like the others). */
  devMiddleware?: Step;
  /** Renders a GET for the answer store; absent (development, some tests): every request renders. */
  render?: SiteRender;
};

export type Site = {
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  store?: AnswerStore;
  /** The site's metrics, when METRICS_PORT asks for them (served apart: server/metrics-server.ts). */
  metrics?: Metrics;
  /** Its calendar, share cards and public configuration, made from its configuration. */
  parts: SiteParts;
  /** Restores the saved copy and starts the first read (before listening). */
  startEvents: () => Promise<void>;
  /** Starts the share card worker and has it draw a first card (before listening; not in development). */
  warmShareCards: () => Promise<void>;
  /** Removes the listeners the site set on its parts (and the preparer's timer); its server is the caller's to close. */
  close: () => void;
};

const MB = 1024 * 1024;

/** The HTTP server's request listener, and the store of rendered answers (to warm before listening). */
export function createSite({ env, logger, handler, readiness, clientRoot, devMiddleware, render }: SiteOptions): Site {
  // Whether X-Forwarded-For/-Proto/-Host are believed: each only from a hop TRUST_PROXY trusts.
  const client = clientOf(trustOf(env.TRUST_PROXY));

  const publicConfig = publicConfigOf(env);
  // What the site's workers write to stderr is scrubbed of this site's secrets (its env's, not the process's).
  const scrub = scrubberFor(env);
  const shareImages = siteShareImages(env, logger, publicConfig.siteUrl, scrub);
  const events = createEventsService(env, { log: eventsLogOf(logger), scrub });
  const parts: SiteParts = { events, shareImages, publicConfig };
  // What the site sets on its parts, each with what removes it (close).
  const removers: (() => void)[] = [events.onChange((list) => shareImages.drawAhead(list))];

  const frameOrigin = originOf(publicConfig.calendar.embedUrl);
  const formOrigin = originOf(publicConfig.contactSurveyUrl);
  const cspOptions: CspOptions = {
    frameOrigins: frameOrigin ? [frameOrigin] : [],
    formOrigins: formOrigin ? [formOrigin] : [],
    development: env.NODE_ENV === "development",
  };
  const store = render
    ? createAnswerStore({
        render: (url, outcome) => render(url, parts, outcome),
        eventsOutcome: (waitMs) => getEventsOutcome(events, { waitMs }),
        csp: cspFor(cspOptions),
        clientRoot,
        secure: client.secure,
        onRender: (url) => logger.debug({ url }, "rendered an answer"),
        budgets: { pages: env.STORED_PAGES_MB * MB },
        // The cards' own store holds their bytes, within STORED_IMAGES_MB; the store answers from them.
        shareCards: { png: (event) => shareImages.imageFor(event), stats: () => imagesBudget(shareImages.stats()) },
      })
    : undefined;
  // Every read can change the version (a change, stale, fresh again): its answers are made before a visitor asks.
  if (store) {
    const prepare = eventsPreparer(store, logger);
    removers.push(events.onRead(prepare), prepare.stop);
  }
  const metrics = env.METRICS_PORT === undefined ? undefined : siteMetrics(parts, store, removers);
  // A preview instance of a change (server/preview-instance.ts): noindex everywhere, and no editor.
  const preview = env.previewUrl !== undefined;
  // "Sign in with GitHub" for the editor: only with an OAuth app and a repository to edit.
  const signIn =
    !preview && env.GITHUB_OAUTH_CLIENT_ID && env.GITHUB_OAUTH_CLIENT_SECRET && env.CONTENT_REPOSITORY
      ? githubSignIn({
          clientId: env.GITHUB_OAUTH_CLIENT_ID,
          clientSecret: env.GITHUB_OAUTH_CLIENT_SECRET,
          // The same with drafts on: the scope that writes to the repository also opens, labels and merges its pull
          // requests, and reads its deployments and statuses (docs/decisions/content-editor.md, "Drafts").
          scope: env.GITHUB_OAUTH_SCOPE,
          githubUrl: env.GITHUB_OAUTH_URL,
          siteUrl: env.SITE_URL,
          client,
          logger,
        })
      : undefined;
  const steps: Step[] = [
    requestLogging(logger, metrics?.responded),
    ...(preview ? [noindexEveryAnswer] : []),
    ...securityHeaders(cspOptions, client.secure),
    onlyReadMethods(signIn ? isSignInPath : undefined),
    wellFormedTarget(client.forwardedHost),
    healthRoutes(readiness, events.status),
    rateLimits({
      pagesPerMinute: env.PAGE_RATE_LIMIT_PER_MINUTE,
      apiPerMinute: env.RATE_LIMIT_PER_MINUTE,
      speculativePerMinute: env.SPECULATIVE_RATE_LIMIT_PER_MINUTE,
      address: client.address,
      onRefused: metrics?.refused,
    }),
    ...(signIn ? [signIn] : []),
    // On a preview, every /admin address is answered here: the editor's step below never sees one.
    ...(preview ? [adminOff({ siteName: site.name, liveSiteUrl: env.SITE_URL, secure: client.secure })] : []),
    adminEditor({
      repository: env.CONTENT_REPOSITORY,
      branch: env.CONTENT_BRANCH,
      siteUrl: env.SITE_URL,
      siteName: site.name,
      secure: client.secure,
      signIn: signIn !== undefined,
      drafts: env.CONTENT_DRAFTS,
    }),
    ...(store ? [store.step] : []),
    ...(devMiddleware ? [devMiddleware] : []),
  ];

  const last = (req: IncomingMessage, res: ServerResponse, error?: unknown) => {
    if (error !== undefined) return answerError(error, req, res);
    Promise.resolve()
      .then(() => handler(req, res, parts))
      .catch((thrown: unknown) => answerError(thrown, req, res));
  };
  return {
    listener: inOrder(steps, last),
    store,
    metrics,
    parts,
    startEvents: () => events.start(),
    warmShareCards: () => warmShareImages(shareImages, env, logger),
    close: () => {
      for (const remove of removers.splice(0)) remove();
    },
  };
}

/** The calendar's lines go to the site's logger. */
function eventsLogOf(logger: Logger): EventsLog {
  return {
    warn: (message) => logger.warn(message),
    info: (message) => logger.info(message),
    debug: (message) => logger.debug(message),
  };
}

/** The share cards' store as the images' budget of the stored answers (a card drawn is its render). */
export function imagesBudget(cards: ShareImagesStats): BudgetStats {
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

/** The metrics, reading the site's calendar, store and share cards when scraped. */
function siteMetrics({ events, shareImages }: SiteParts, store: AnswerStore | undefined, removers: (() => void)[]): Metrics {
  const metrics = createMetrics({
    calendar: events.status,
    savedCopyPath: events.savedCopyPath,
    store: store?.stats,
    shareCards: () => shareImages.stats(),
  });
  removers.push(events.onRead(metrics.calendarRead));
  return metrics;
}
