// SIGTERM/SIGINT: the built server stops accepting, finishes what is in flight, closes idle
// keep-alive connections and exits 0, closing what is still busy after the grace period.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, createServer, request, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { NO_SOURCE } from "../support/environments";
import { START_LIMIT_MS } from "../support/start-server";
import type { Timings } from "~/timings.server";
import { FAST_TIMINGS, timingsVariable, UNTIL_MS } from "../support/timings";

/** An .ics feed on loopback that holds every request until released: a read of the calendar kept in flight. */
async function startHeldFeed() {
  const feed = readFileSync(new URL("../fixtures/unbounded-monthly.ics", import.meta.url));
  const held: ServerResponse[] = [];
  let released = false;
  const answer = (res: ServerResponse) => res.writeHead(200, { "Content-Type": "text/calendar" }).end(feed);
  const server = createServer((_req, res) => (released ? answer(res) : held.push(res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.ics`,
    held: () => held.length,
    release() {
      released = true;
      for (const res of held.splice(0)) answer(res);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Started = { child: ChildProcess; port: number; output: () => string; exited: Promise<{ code: number | null; at: number }> };

// The grace period after a signal: production's 8 s (checked against the orchestrators' 10 s in
// env.server.test.ts), which no test here waits for, but 1 s where a test must see it end.
const { shutdownGraceMs } = FAST_TIMINGS;

async function start(env: Record<string, string>, timings: Partial<Timings> = {}): Promise<Started> {
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      CALENDAR_ICS_URL: "",
      EVENTS_SAVED_COPY_PATH: "off",
      // As startServer's: no share card worker at start-up (share-cards.test.ts has it).
      SHARE_CARDS_AHEAD: "0",
      TIMINGS: timingsVariable(timings),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once("exit", (code) => resolve({ code, at: Date.now() })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${output}`));
    }, START_LIMIT_MS);
    child.stdout.on("data", () => {
      const match = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    void exited.then(() => reject(new Error(`server exited:\n${output}`)));
  });
  return { child, port, output: () => output, exited };
}

const log = (started: Started) => started.output();

type Answer = { status: number; body: string; connection: string | undefined };

function get(port: number, path: string, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on("error", reject);
    req.end();
  });
}

function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code));
  });
}

let fake: Awaited<ReturnType<typeof startHeldFeed>> | undefined;
let server: Started | undefined;
afterEach(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill("SIGKILL");
    await server.exited;
  }
  await fake?.close();
  fake = server = undefined;
});

describe("graceful shutdown", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "on %s finishes a slow request in flight, refuses new connections and exits 0 once it is answered",
    async (signal) => {
      fake = await startHeldFeed();
      // The calendar's read, and the request waiting on it, last until the test releases the feed
      // (not the upstream's 5 s, nor a visitor's 4 s), however slow the machine.
      server = await start({ CALENDAR_ICS_URL: fake.url }, { upstreamTimeoutMs: 60_000, readWaitMs: 60_000 });
      const { port } = server;
      // The server's first read of the calendar, started as it starts, waits at the feed.
      await expect.poll(() => fake!.held(), { timeout: UNTIL_MS }).toBe(1);

      // An idle keep-alive connection, and a request that waits on that read.
      const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
      expect((await get(port, "/healthz", keepAlive)).status).toBe(200);
      const idleSocketClosed = new Promise<number>((resolve) => {
        const sockets = Object.values(keepAlive.freeSockets).flat();
        expect(sockets).toHaveLength(1);
        sockets[0]!.once("close", () => resolve(Date.now()));
      });
      const inFlight = get(port, "/api/calendar/events");
      inFlight.catch(() => {}); // awaited below; a failure there fails the test
      // A request on a later connection answered: the server has the one above in hand.
      expect((await get(port, "/healthz")).status).toBe(200);

      const signalledAt = Date.now();
      server.child.kill(signal);

      // Idle connections are closed at once (while the request is still held); new ones are refused.
      expect(await idleSocketClosed).toBeGreaterThanOrEqual(signalledAt);
      expect(fake.held()).toBe(1);
      await expect.poll(() => connectError(port), { timeout: UNTIL_MS }).toBe("ECONNREFUSED");

      // The request in flight completes normally once the calendar answers, told that its connection closes.
      fake.release();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).events.length).toBeGreaterThan(0);
      expect(answer.connection).toBe("close");

      const { code } = await server.exited;
      expect(code).toBe(0);
      // It waited for the request, not for the grace period: the calendar's answer was all that kept it.
      expect(log(server)).not.toContain("requests still running after the grace period");
      expect(log(server)).toContain('"msg":"shutting down: no new connections; finishing requests in flight"');
      expect(log(server)).toContain(`"signal":"${signal}"`);
      expect(log(server)).toContain('"msg":"stopped"');
      keepAlive.destroy();
    },
  );

  it("closes a connection still busy after the grace period, and exits 0", async () => {
    server = await start(NO_SOURCE, { shutdownGraceMs });
    // A client that never finishes sending its request: its connection is not idle, so only the
    // grace period ends it (Node's own 10 s headers timeout would come later).
    const socket = connect(server.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
    const socketClosed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
    socket.on("error", () => {});
    // A request on a later connection answered: the server has read the first one's bytes, so it
    // counts that connection as busy.
    expect((await get(server.port, "/healthz")).status).toBe(200);

    const signalledAt = Date.now();
    server.child.kill("SIGTERM");
    const { code, at } = await server.exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeGreaterThanOrEqual(shutdownGraceMs);
    expect(at - signalledAt).toBeLessThan(10_000);
    expect((await socketClosed) - signalledAt).toBeLessThan(10_000);
    expect(server.output()).toContain("requests still running after the grace period: closing their connections");
  });

  it("exits at once with nothing in flight", async () => {
    server = await start(NO_SOURCE);
    expect((await get(server.port, "/")).status).toBe(200);
    server.child.kill("SIGTERM");
    const { code } = await server.exited;
    expect(code).toBe(0);
    // It closed at once and stopped: it did not wait for the grace period.
    expect(log(server)).toContain('"msg":"stopped"');
    expect(log(server)).not.toContain("requests still running after the grace period");
  });
});
