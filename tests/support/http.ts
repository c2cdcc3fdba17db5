// Timed requests against a running server, for tests that assert how fast it answers.
import { createServer } from "node:net";
import { performance } from "node:perf_hooks";

export type TimedAnswer = { status: number; headers: Headers; text: string; ms: number };

/** GET (or another method) `path`, body read in full; `ms` covers the whole exchange. Gives up after `giveUpMs`. */
export async function timed(base: string, path: string, init: RequestInit = {}, giveUpMs = 15_000): Promise<TimedAnswer> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { redirect: "manual", signal: AbortSignal.timeout(giveUpMs), ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, ms: performance.now() - started };
}

/** A loopback port free right now (nothing listens on it once this resolves). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
