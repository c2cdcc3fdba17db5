import { isIP } from "node:net";
import { z } from "zod";
import { PRODUCTION_TIMINGS, resolveTimings, timingOverrides, type Timings } from "./timings.server";

const httpUrl = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "must be an absolute http(s) URL",
  });

// A public iCalendar feed: http(s), or webcal:// (read as https).
const feedUrl = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^(https?|webcal):$/.test(new URL(value).protocol), {
    message: "must be an absolute http(s) or webcal URL",
  });

// Which proxies' X-Forwarded-* headers are believed: none (false, the default), a hop count, or a list
// of addresses, subnets and proxy-addr's names for private ranges. Not `true` (every hop): any client
// could then name its own address (and so its own rate-limit bucket) in X-Forwarded-For.
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const isProxyAddress = (entry: string) => {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
};
export type TrustProxy = false | number | string[];
export const TRUST_PROXY_TRUE =
  "cannot be true (every hop: a client could then choose its own address with X-Forwarded-For): set the " +
  "proxies' addresses (e.g. loopback, or 10.0.0.0/8), or, when nothing can reach this server but through them, " +
  "how many there are (e.g. 1)";
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): TrustProxy => {
    const lower = value.toLowerCase();
    if (lower === "true") {
      ctx.addIssue({ code: "custom", message: TRUST_PROXY_TRUE });
      return z.NEVER;
    }
    if (lower === "false") return false;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value.split(",").map((entry) => entry.trim());
    if (entries.every(isProxyAddress)) return entries;
    ctx.addIssue({
      code: "custom",
      message: "must be false, a hop count, or a comma-separated list of addresses/subnets (or loopback, linklocal, uniquelocal)",
    });
    return z.NEVER;
  });

/** Loopback, where the tests' fakes listen: the one place a secret may travel over plain HTTP. */
const isLoopbackHost = (hostname: string) => {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return bare === "localhost" || bare === "::1" || (isIP(bare) === 4 && bare.startsWith("127."));
};
// An upstream that is sent a secret (the OAuth app's, the Google key): https, or loopback (the tests' fakes).
const secretUrl = httpUrl.refine(
  // An unparseable value is httpUrl's to name.
  (value) => !URL.canParse(value) || new URL(value).protocol === "https:" || isLoopbackHost(new URL(value).hostname),
  { message: "must be an https URL (it is sent a secret; plain http only to loopback, for tests)" },
);

// TIMINGS: a JSON object of millisecond overrides of the server's timers (app/timings.server.ts), for tests.
const timingsJson = z
  .string()
  .transform((value, ctx): unknown => {
    try {
      return JSON.parse(value);
    } catch {
      ctx.addIssue({ code: "custom", message: 'must be a JSON object of milliseconds by name, e.g. {"upstreamTimeoutMs":500}' });
      return z.NEVER;
    }
  })
  .pipe(timingOverrides);

/** Where the saved copy is kept when EVENTS_SAVED_COPY_PATH is unset (relative to the working directory). */
export const SAVED_COPY_DEFAULT_PATH = ".data/events-saved-copy.json";
/**
 * Where versions before the rename kept it by default: read at start while only it exists (and the
 * default is in use), so an upgrade keeps the saved copy; the next good read writes the new file.
 */
export const OLD_SAVED_COPY_DEFAULT_PATH = ".data/events-snapshot.json";

/** Variables that were renamed: each old name is still read while the new one is unset, with a warning at start. */
export const RENAMED_VARIABLES = { EVENTS_SNAPSHOT_PATH: "EVENTS_SAVED_COPY_PATH" } as const;
/** An old name an operator set; `ignored` when its new name is set too. */
export type OldNameSet = { name: keyof typeof RENAMED_VARIABLES; ignored: boolean };

// Render's flag for a pull request's preview instance: the strings "true" and "false" (docs/deploying.md).
const renderFlag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => value === "true" || value === "false", {
    message: 'must be "true" or "false" (Render sets it: "true" on a pull request\'s preview instance)',
  })
  .transform((value) => value === "true");

// CONTENT_DRAFTS: a switch an operator writes as on/off (or true/false).
const onOff = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => ["on", "off", "true", "false"].includes(value), {
    message:
      'must be "on" or "off" (on: a save in the content editor is a draft pull request, published by merging it; off: a save commits straight to CONTENT_BRANCH)',
  })
  .transform((value) => value === "on" || value === "true");

// Unset and empty are the same thing for an operator.
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

export const envSchema = z
  .object({
    NODE_ENV: optional(z.enum(["development", "production", "test"])).default("production"),
    PORT: optional(z.coerce.number().int().min(0).max(65535)).default(3000),
    HOST: optional(z.string().min(1)).default("0.0.0.0"),
    SITE_URL: optional(httpUrl),
    MEMBER_LOGIN_URL: optional(httpUrl),
    APPLICATION_URL: optional(httpUrl),
    CONTACT_SURVEY_URL: optional(httpUrl),
    // Events source: Google Calendar (id + key), a public .ics feed, or neither (the bundled sample).
    GOOGLE_CALENDAR_ID: optional(z.string().trim().min(1)),
    GOOGLE_API_KEY: optional(z.string().trim().min(1)),
    GOOGLE_CALENDAR_API_URL: optional(secretUrl).default("https://www.googleapis.com/calendar/v3"),
    CALENDAR_ICS_URL: optional(feedUrl),
    EVENTS_CACHE_TTL_SECONDS: optional(z.coerce.number().int().min(1).max(86_400)).default(PRODUCTION_TIMINGS.calendarTtlMs / 1000),
    // The last good read, kept on disk for restarts during an outage ("off": not kept); SAVED_COPY_DEFAULT_PATH when unset.
    EVENTS_SAVED_COPY_PATH: optional(z.string().trim().min(1)),
    // Its old name (RENAMED_VARIABLES), read while EVENTS_SAVED_COPY_PATH is unset.
    EVENTS_SNAPSHOT_PATH: optional(z.string().trim().min(1)),
    // Share cards drawn when a calendar read brings events, soonest upcoming first; 0: only when asked for.
    SHARE_CARDS_AHEAD: optional(z.coerce.number().int().min(0).max(1_000)).default(30),
    // The HTTP process: proxies, abuse limits, logs.
    TRUST_PROXY: optional(trustProxy).default(false),
    // Per client address. Up to ten million: benchmarks and load tests lift the limits without turning them off.
    RATE_LIMIT_PER_MINUTE: optional(z.coerce.number().int().min(1).max(10_000_000)).default(120),
    PAGE_RATE_LIMIT_PER_MINUTE: optional(z.coerce.number().int().min(1).max(10_000_000)).default(1200),
    // Pages loaded ahead by the speculation rules (Sec-Purpose: prefetch), in a budget of their own:
    // a visitor who rests the pointer on every link of a page stays far under it.
    SPECULATIVE_RATE_LIMIT_PER_MINUTE: optional(z.coerce.number().int().min(1).max(10_000_000)).default(120),
    // Memory for stored answers, in MB: pages (HTML, data, JSON, downloads) and images (share cards)
    // apart, so a crawl of every share card never pushes out a page.
    STORED_PAGES_MB: optional(z.coerce.number().int().min(1).max(65_536)).default(64),
    STORED_IMAGES_MB: optional(z.coerce.number().int().min(1).max(65_536)).default(32),
    // Prometheus metrics on a listener of their own, never the public port; off when unset (0: any free port).
    METRICS_PORT: optional(z.coerce.number().int().min(0).max(65535)),
    METRICS_HOST: optional(z.string().trim().min(1)).default("127.0.0.1"),
    LOG_LEVEL: optional(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])).default("info"),
    // The content editor at /admin commits to this GitHub repository ("owner/name") and branch.
    CONTENT_REPOSITORY: optional(
      z
        .string()
        .trim()
        .regex(/^[\w.-]+\/[\w.-]+$/, "must be a GitHub repository as owner/name, e.g. our-org/founders-site"),
    ),
    CONTENT_BRANCH: optional(
      z
        .string()
        .trim()
        .regex(/^(?!\/|.*\/$|.*\.\.)[\w./-]+$/, "must be a branch name, e.g. main"),
    ).default("main"),
    // Drafts (docs/decisions/content-editor.md): a save becomes a draft pull request on a cms/… branch, and Publish merges it.
    CONTENT_DRAFTS: optional(onOff).default(false),
    // "Sign in with GitHub" in the editor (server/github-oauth.ts): an OAuth app's id and secret, both or neither.
    GITHUB_OAUTH_CLIENT_ID: optional(z.string().trim().min(1)),
    GITHUB_OAUTH_CLIENT_SECRET: optional(z.string().trim().min(1)),
    // What the editor may do with a volunteer's account: commit to public repositories, or to private ones too.
    GITHUB_OAUTH_SCOPE: optional(z.enum(["public_repo", "repo"])).default("public_repo"),
    GITHUB_OAUTH_URL: optional(secretUrl).default("https://github.com"),
    // Set by Render, not by an operator: "true" on a pull request's preview instance, with that instance's own
    // address. Such an instance shows a change before it is published (server/preview-instance.ts).
    IS_PULL_REQUEST: optional(renderFlag).default(false),
    // Render sets it on every web service; read only on a preview instance (checked below), so the live site never depends on it.
    RENDER_EXTERNAL_URL: optional(z.string().trim()),
    // Not for operators: the tests' small timers (the calendar's TTL below a second among them).
    TIMINGS: optional(timingsJson),
  })
  // `when` runs the cross-variable rules even if another variable failed, so every bad one is named.
  .superRefine(
    (env, ctx) => {
      if (env.GOOGLE_CALENDAR_ID && !env.GOOGLE_API_KEY) {
        ctx.addIssue({ code: "custom", path: ["GOOGLE_API_KEY"], message: "is required when GOOGLE_CALENDAR_ID is set" });
      }
      if (env.GOOGLE_API_KEY && !env.GOOGLE_CALENDAR_ID) {
        ctx.addIssue({ code: "custom", path: ["GOOGLE_CALENDAR_ID"], message: "is required when GOOGLE_API_KEY is set" });
      }
      // The OAuth app's id and secret: both or neither.
      for (const [have, need] of [
        ["GITHUB_OAUTH_CLIENT_ID", "GITHUB_OAUTH_CLIENT_SECRET"],
        ["GITHUB_OAUTH_CLIENT_SECRET", "GITHUB_OAUTH_CLIENT_ID"],
      ] as const) {
        if (env[have] && !env[need]) ctx.addIssue({ code: "custom", path: [need], message: `is required when ${have} is set` });
      }
      if (env.IS_PULL_REQUEST && !env.RENDER_EXTERNAL_URL) {
        ctx.addIssue({
          code: "custom",
          path: ["RENDER_EXTERNAL_URL"],
          message: "is required when IS_PULL_REQUEST is true: a preview instance's links point at its own address (Render sets both)",
        });
      } else if (env.IS_PULL_REQUEST && !httpUrl.safeParse(env.RENDER_EXTERNAL_URL).success) {
        ctx.addIssue({
          code: "custom",
          path: ["RENDER_EXTERNAL_URL"],
          message: "must be an absolute http(s) URL: the preview instance's own address (https://….onrender.com)",
        });
      }
      if (env.CALENDAR_ICS_URL && (env.GOOGLE_CALENDAR_ID || env.GOOGLE_API_KEY)) {
        ctx.addIssue({
          code: "custom",
          path: ["CALENDAR_ICS_URL"],
          message: "cannot be combined with GOOGLE_CALENDAR_ID/GOOGLE_API_KEY: choose one events source",
        });
      }
    },
    { when: () => true },
  )
  // The timers the process runs with, resolved once: production's unless TIMINGS overrides them; each
  // renamed variable's value under its new name; whether this is a preview instance, and its address.
  .transform(
    ({
      TIMINGS,
      EVENTS_SNAPSHOT_PATH,
      IS_PULL_REQUEST,
      RENDER_EXTERNAL_URL,
      ...env
    }): Omit<typeof env, "EVENTS_SAVED_COPY_PATH"> & {
      EVENTS_SAVED_COPY_PATH: string;
      oldNames: OldNameSet[];
      timings: Timings;
      /**
       * A preview instance's own address (RENDER_EXTERNAL_URL, no trailing slash) when this process is one
       * (IS_PULL_REQUEST); undefined on the live site.
       */
      previewUrl?: string;
    } => ({
      ...env,
      ...(IS_PULL_REQUEST && RENDER_EXTERNAL_URL ? { previewUrl: RENDER_EXTERNAL_URL.replace(/\/+$/, "") } : {}),
      EVENTS_SAVED_COPY_PATH: env.EVENTS_SAVED_COPY_PATH ?? EVENTS_SNAPSHOT_PATH ?? SAVED_COPY_DEFAULT_PATH,
      oldNames:
        EVENTS_SNAPSHOT_PATH === undefined ? [] : [{ name: "EVENTS_SNAPSHOT_PATH", ignored: env.EVENTS_SAVED_COPY_PATH !== undefined }],
      timings: resolveTimings(TIMINGS, env.EVENTS_CACHE_TTL_SECONDS),
    }),
  );

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses the environment, naming every bad variable (never echoing values, which may be secrets). */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`);
  throw new EnvError(`Invalid configuration in the environment:\n${lines.join("\n")}`);
}

/** Logged at start-up, at warn level: one line per old name an operator set, naming the new one. */
export function warnAboutOldNames(env: Pick<Env, "oldNames">, logger: { warn: (message: string) => void }): number {
  for (const { name, ignored } of env.oldNames) {
    const now = RENAMED_VARIABLES[name];
    logger.warn(
      ignored
        ? `WARNING: ${name} is an old name and is ignored, as ${now} is set: remove ${name}.`
        : `WARNING: ${name} is an old name: rename it ${now} (it is read as ${now} until then).`,
    );
  }
  return env.oldNames.length;
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * The part of this process's environment a worker process is started with: the variables a worker
 * names (a name, or a pattern for a family such as MIMALLOC_*) and nothing else, so no worker holds
 * the OAuth app's secret or, unless it is sent it for a read, the Google key.
 */
export function workerEnvironment(wanted: readonly (string | RegExp)[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && wanted.some((want) => (typeof want === "string" ? want === name : want.test(name)))) env[name] = value;
  }
  return env;
}
