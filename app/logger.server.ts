// The process's one logger: JSON lines on stdout (pino), level from LOG_LEVEL.
// Secrets never reach a line: the Google API key's and the GitHub OAuth app's secret values, and any
// `key=`, `token=` or `code=` URL parameter, are scrubbed from messages and errors, whatever code wrote them.
import { pino, type Logger } from "pino";
import { getEnv, type Env } from "~/env.server";

export type { Logger };

const KEY_PARAMETER = /([?&](?:key|api_key|apikey|access_token|token|code)=)[^&#\s"']+/gi;

/** Removes the given secret values and secret-looking URL parameters from a text. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let clean = text.replace(KEY_PARAMETER, "$1[redacted]");
  for (const secret of secrets) if (secret) clean = clean.split(secret).join("[redacted]");
  return clean;
}

type SerializedError = { type: string; message: string; stack?: string; code?: string };

type SecretEnv = Pick<Env, "GOOGLE_API_KEY"> & Partial<Pick<Env, "GITHUB_OAUTH_CLIENT_SECRET">>;

/** Removes a site's secrets (and secret-looking URL parameters) from a text. */
export type Scrub = (text: string) => string;

/**
 * The scrubber of the lines written with `env`'s secrets at hand: the logger's, and a site's workers' stderr
 * (server/site.ts makes one from the site's own env and hands it to the workers' starters, child-worker.server.ts).
 */
export function scrubberFor(env: SecretEnv): Scrub {
  const secrets = [env.GOOGLE_API_KEY ?? "", env.GITHUB_OAUTH_CLIENT_SECRET ?? ""];
  return (text) => scrubSecrets(text, secrets);
}

export function createLogger(env: Pick<Env, "LOG_LEVEL"> & SecretEnv, destination?: pino.DestinationStream): Logger {
  const scrub = scrubberFor(env);
  return pino(
    {
      level: env.LOG_LEVEL,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: {
        err: (error: unknown): SerializedError => {
          if (!(error instanceof Error)) return { type: typeof error, message: scrub(String(error)) };
          const code = (error as { code?: unknown }).code;
          return {
            type: error.name,
            message: scrub(error.message),
            ...(error.stack ? { stack: scrub(error.stack) } : {}),
            ...(typeof code === "string" ? { code } : {}),
          };
        },
      },
      hooks: {
        // Scrubs the message (and format arguments) of every call.
        logMethod(args, method) {
          const clean = args.map((arg) => (typeof arg === "string" ? scrub(arg) : arg)) as typeof args;
          method.apply(this, clean);
        },
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

let cached: Logger | undefined;

export function getLogger(): Logger {
  cached ??= createLogger(getEnv());
  return cached;
}
