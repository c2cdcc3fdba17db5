import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { QueryClient } from "@tanstack/react-query";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQueryClient, getQueryFn, throwIfResNotOk } from "./query-client";

// A real loopback server, so the helper is exercised over HTTP as in the browser.
let server: Server;
let origin = "";
const seen: Array<{ url: string; cookie?: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", cookie: req.headers.cookie });
    switch (req.url) {
      case "/api/calendar/events":
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ events: [{ id: "a" }] }));
        return;
      case "/api/secret":
        res.writeHead(401, { "content-type": "text/plain" }).end("Not signed in");
        return;
      case "/api/broken":
        res.writeHead(500, { "content-type": "text/plain" }).end("Upstream exploded");
        return;
      default:
        res.writeHead(503).end();
    }
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Relative keys, as the app uses them, resolved against the test server.
const loopbackFetch: typeof fetch = (input, init) => fetch(`${origin}${String(input)}`, init);

async function run(on401: "throw" | "returnNull", key: string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return client.fetchQuery({ queryKey: key, queryFn: getQueryFn({ on401, fetch: loopbackFetch }) });
}

describe("getQueryFn", () => {
  it("GETs the key's segments joined with '/' and reads the JSON body", async () => {
    await expect(run("throw", ["", "api", "calendar", "events"])).resolves.toEqual({ events: [{ id: "a" }] });
    expect(seen.at(-1)?.url).toBe("/api/calendar/events");
  });

  it("sends credentials with every read", async () => {
    let init: RequestInit | undefined;
    const spy: typeof fetch = (input, requestInit) => {
      init = requestInit;
      return loopbackFetch(input, requestInit);
    };
    const client = new QueryClient();
    await client.fetchQuery({ queryKey: ["/api/calendar/events"], queryFn: getQueryFn({ on401: "throw", fetch: spy }) });
    expect(init?.credentials).toBe("include");
  });

  it("yields null on 401 when asked to", async () => {
    await expect(run("returnNull", ["/api/secret"])).resolves.toBeNull();
  });

  it("throws on 401 by default", async () => {
    await expect(run("throw", ["/api/secret"])).rejects.toThrow("401: Not signed in");
  });

  it("formats other failures as '<status>: <body>'", async () => {
    await expect(run("throw", ["/api/broken"])).rejects.toThrow(new Error("500: Upstream exploded"));
  });

  it("falls back to the status text when the body is empty", async () => {
    await expect(run("throw", ["/nothing-here"])).rejects.toThrow(new Error("503: Service Unavailable"));
  });
});

describe("throwIfResNotOk", () => {
  it("passes 2xx answers through", async () => {
    await expect(throwIfResNotOk(new Response("ok", { status: 200 }))).resolves.toBeUndefined();
  });

  it.each([
    [404, "Not Found", "missing", "404: missing"],
    [502, "Bad Gateway", "", "502: Bad Gateway"],
  ])("%i with body %j", async (status, statusText, body, message) => {
    await expect(throwIfResNotOk(new Response(body, { status, statusText }))).rejects.toThrow(new Error(message));
  });
});

describe("createQueryClient", () => {
  it("applies the spec §9 read policy", () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries).toMatchObject({
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    });
    expect(typeof defaults.queries?.queryFn).toBe("function");
    expect(defaults.mutations).toMatchObject({ retry: false });
  });
});
