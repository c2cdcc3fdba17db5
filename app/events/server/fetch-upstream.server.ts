// One GET to an upstream (Google, an .ics feed) with a timeout, a body size limit and a few
// jittered retries. Errors carry a short description and never the URL: Google URLs contain the API key.
import type { z } from "zod";
import { getLogger } from "~/logger.server";
import { PRODUCTION_TIMINGS, type Timings } from "~/timings.server";

/**
 * The most one answer (a body, decoded) may hold: 5 MB. For Google that is one page (a page of our
 * fields is under 1 MB: see GOOGLE_PAGE_SIZE); for a feed, the whole file. Anything bigger is a
 * runaway or hostile answer that must not fill the server's memory.
 */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Error bodies are read only to decide on a retry; the rest is dropped. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export type UpstreamOptions = {
  /** Per attempt, covering headers and body. */
  timeoutMs: number;
  /** Retries after the first attempt, on 429, 5xx, timeouts and network errors. */
  retries: number;
  /** Delay before retry number `attempt` (1-based). */
  backoffMs: (attempt: number) => number;
  sleep: (ms: number) => Promise<void>;
  fetch: typeof globalThis.fetch;
  log: (message: string) => void;
  /** Body size limit in bytes; MAX_BODY_BYTES unless a test sets a smaller one. */
  maxBodyBytes?: number;
  /** Told each time an answer arrives whole (a page): the calendar worker reports it, so a read's deadline follows its pages. */
  onAnswer?: () => void;
  /** A retry inside one read waits at most this long; an upstream asking for more is left to the cache's backoff. */
  maxInReadWaitMs?: number;
  /** A 429 without Retry-After (or a rate-limit 403): no read for at least this long. */
  rateLimitHoldOffMs?: number;
  /** Google's exhausted quota: no read for at least this long. */
  quotaHoldOffMs?: number;
};

/** The upstream's timings (app/timings.server.ts): plain numbers, so they cross to the calendar worker. */
export type UpstreamTimings = Pick<
  Timings,
  "upstreamTimeoutMs" | "upstreamRetryMs" | "inReadWaitMaxMs" | "rateLimitHoldOffMs" | "quotaHoldOffMs"
>;

/** The options a read of the calendar uses, with these timings. */
export function upstreamOptions(timings: UpstreamTimings): UpstreamOptions {
  return {
    timeoutMs: timings.upstreamTimeoutMs,
    // One quick retry for a blip; a longer outage is the events cache's to pace (cache.server.ts).
    retries: 1,
    backoffMs: jitteredBackoff(timings.upstreamRetryMs),
    maxInReadWaitMs: timings.inReadWaitMaxMs,
    rateLimitHoldOffMs: timings.rateLimitHoldOffMs,
    quotaHoldOffMs: timings.quotaHoldOffMs,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    fetch: (...args) => globalThis.fetch(...args),
    log: (message) => getLogger().warn(message),
  };
}

export const defaultUpstreamOptions: UpstreamOptions = upstreamOptions(PRODUCTION_TIMINGS);

/** "Equal jitter": between half and all of base·2^(attempt-1). */
export function jitteredBackoff(baseMs: number, random: () => number = Math.random): (attempt: number) => number {
  return (attempt) => {
    const ceiling = baseMs * 2 ** (attempt - 1);
    return Math.round(ceiling / 2 + random() * (ceiling / 2));
  };
}

/**
 * network: unreachable; timeout: no answer in time; http: an error status; invalid-body: not the
 * expected format (not JSON, not iCalendar); unreadable: the body arrived but reading it failed;
 * too-large: over the size limit. Only network, timeout and some statuses are worth a retry.
 */
export type UpstreamFailure = "http" | "timeout" | "network" | "invalid-body" | "unreadable" | "too-large";

export class UpstreamError extends Error {
  override name = "UpstreamError";
  constructor(
    message: string,
    readonly kind: UpstreamFailure,
    readonly status?: number,
    readonly retryable = false,
    /** How long the upstream asked us to stay away (Retry-After, a rate limit or an exhausted quota), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  /** The same failure, asking for at least `ms` before the next read. */
  holdingOff(ms: number): UpstreamError {
    return new UpstreamError(this.message, this.kind, this.status, this.retryable, Math.max(this.retryAfterMs ?? 0, ms));
  }
}

/** The longest Retry-After we honour: a misconfigured upstream must not silence us for days. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

export type RequestSpec<T> = {
  url: string;
  /** For messages and logs, e.g. "Google Calendar"; the URL is never logged. */
  label: string;
  accept: string;
  /** Reads a 2xx body (its text, within the size limit); throws UpstreamError("invalid-body") when it is not the expected shape. */
  read: (body: string) => T | Promise<T>;
  /** Whether a non-2xx answer is worth retrying; defaults to 429 and 5xx. */
  retryableStatus?: (status: number, body: string) => boolean;
  signal?: AbortSignal;
};

const defaultRetryable = (status: number) => status === 429 || status >= 500;

export async function requestUpstream<T>(spec: RequestSpec<T>, options: UpstreamOptions = defaultUpstreamOptions): Promise<T> {
  let lastError: UpstreamError | undefined;
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    if (attempt > 0) await options.sleep(options.backoffMs(attempt));
    try {
      const answer = await attemptOnce(spec, options);
      options.onAnswer?.();
      return answer;
    } catch (error) {
      const failure =
        error instanceof UpstreamError ? error : new UpstreamError(`${spec.label}: unexpected failure`, "network", undefined, false);
      lastError = failure;
      const more =
        failure.retryable &&
        attempt < options.retries &&
        (failure.retryAfterMs ?? 0) <= (options.maxInReadWaitMs ?? PRODUCTION_TIMINGS.inReadWaitMaxMs);
      options.log(`[events] ${failure.message} (attempt ${attempt + 1} of ${options.retries + 1}${more ? ", retrying" : ""})`);
      if (!more) break;
    }
  }
  throw lastError!;
}

async function attemptOnce<T>(spec: RequestSpec<T>, options: UpstreamOptions): Promise<T> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
  let response: Response;
  let body: string;
  try {
    response = await options.fetch(spec.url, { headers: { accept: spec.accept }, signal, redirect: "follow" });
  } catch (error) {
    throw abortOrNetwork(error, spec.label, timeout, options.timeoutMs);
  }
  try {
    if (!response.ok) {
      const errorBody = await readBody(response, MAX_ERROR_BODY_BYTES, spec.label).catch((error: unknown) => {
        if (error instanceof UpstreamError && error.kind === "too-large") return "";
        throw error;
      });
      const retryable = (spec.retryableStatus ?? defaultRetryable)(response.status, errorBody);
      let retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
      if (response.status === 429)
        retryAfterMs = Math.max(retryAfterMs ?? 0, options.rateLimitHoldOffMs ?? PRODUCTION_TIMINGS.rateLimitHoldOffMs);
      throw new UpstreamError(`${spec.label} answered HTTP ${response.status}`, "http", response.status, retryable, retryAfterMs);
    }
    body = await readBody(response, options.maxBodyBytes ?? MAX_BODY_BYTES, spec.label);
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    throw abortOrNetwork(error, spec.label, timeout, options.timeoutMs);
  }
  return readArrived(spec.label, () => spec.read(body));
}

/**
 * Reads what `label` sent once it has arrived: a failure that is no UpstreamError of the reader's own
 * is "unreadable" (no network problem: the same body would fail again), named by its kind only.
 */
export async function readArrived<T>(label: string, read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    const name = error instanceof Error && /^\w{1,40}$/.test(error.name) ? ` (${error.name})` : "";
    throw new UpstreamError(`${label} arrived but could not be read${name}`, "unreadable");
  }
}

/** A body size limit as the logs say it: "5 MB", or bytes when it is not whole megabytes. */
export function sizeLabel(bytes: number): string {
  return bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MB` : `${bytes} bytes`;
}

/**
 * The body as text, streamed: refused (and the connection dropped) as soon as it passes `limit`
 * bytes, whether or not a Content-Length announced it. Not retried: the next answer would be as big.
 */
async function readBody(response: Response, limit: number, label: string): Promise<string> {
  const tooLarge = () => new UpstreamError(`${label} answered a body larger than ${sizeLabel(limit)}; refused`, "too-large");
  const declared = Number(response.headers.get("content-length") ?? "");
  if (response.body && Number.isFinite(declared) && declared > limit) {
    void response.body.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      void reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  // As Response.text(): UTF-8, a leading BOM dropped, bad bytes replaced.
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function abortOrNetwork(error: unknown, label: string, timeout: AbortSignal, timeoutMs: number): UpstreamError {
  if (timeout.aborted) return new UpstreamError(`${label} did not answer within ${timeoutMs} ms`, "timeout", undefined, true);
  if (error instanceof Error && error.name === "AbortError")
    return new UpstreamError(`${label}: request aborted`, "network", undefined, false);
  // Node's fetch errors say "fetch failed" with a code in `cause`; the code is safe to log, the URL is not.
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === "string" && /^[A-Z0-9_]+$/.test(cause.code) ? ` (${cause.code})` : "";
  return new UpstreamError(`${label} could not be reached${code}`, "network", undefined, true);
}

/** Reads a JSON body and validates it; anything else is an invalid-body failure (no retry). */
export function readJson<T>(schema: z.ZodType<T>, label: string): (body: string) => T {
  return (text) => {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new UpstreamError(`${label} answered a body that is not JSON`, "invalid-body");
    }
    const result = schema.safeParse(data);
    if (!result.success) throw new UpstreamError(`${label} answered JSON of an unexpected shape`, "invalid-body");
    return result.data;
  };
}
