import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createResponseCache, type Render } from "./response-cache";

type Served = { url: string; renders: string[]; close: () => Promise<void> };
const servers: Served[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

let nonceCounter = 0;

/** The cache in front of a renderer that stands in for React Router, on a loopback server. */
async function serve(render: Render, ttlFor: (path: string) => number | undefined = () => 60_000): Promise<Served> {
  const renders: string[] = [];
  const app = express();
  app.use((_req, res, next) => {
    res.locals.nonce = `nonce-${++nonceCounter}`;
    next();
  });
  app.use(
    createResponseCache({
      render: (path, nonce) => {
        renders.push(path);
        return render(path, nonce);
      },
      ttlFor,
      nonceOf: (res) => String(res.locals.nonce),
    }).middleware,
  );
  app.use((_req, res) => {
    res.status(299).send("fell through");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  const served = { url: `http://127.0.0.1:${port}`, renders, close: () => new Promise<void>((r) => server.close(() => r())) };
  servers.push(served);
  return served;
}

const page: Render = async (path, nonce) =>
  new Response(`<html><script nonce="${nonce}">1</script><p>${path}</p><script nonce="${nonce}">2</script></html>`, {
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });

describe("response cache", () => {
  it("renders a page once and gives every later request its own nonce", async () => {
    const { url, renders } = await serve(page);
    const bodies = [];
    for (let i = 0; i < 3; i++) bodies.push(await (await fetch(`${url}/about`)).text());
    expect(renders).toEqual(["/about"]);
    const nonces = bodies.map((b) => [...b.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]));
    for (const found of nonces) {
      expect(found).toHaveLength(2);
      expect(found[0]).toBe(found[1]);
      expect(found[0]).toMatch(/^nonce-\d+$/);
    }
    expect(new Set(nonces.map((n) => n[0])).size).toBe(3);
  });

  it("shares one render between concurrent first requests", async () => {
    const { url, renders } = await serve(async (path, nonce) => {
      await new Promise((r) => setTimeout(r, 50));
      return page(path, nonce);
    });
    const statuses = await Promise.all(Array.from({ length: 20 }, () => fetch(`${url}/`).then((r) => r.status)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(renders).toHaveLength(1);
  });

  it("answers br, gzip or plain bytes as the client accepts, all decoding to the same JSON", async () => {
    const json = JSON.stringify({ events: Array.from({ length: 50 }, (_, i) => ({ id: i, title: "Speaker evening" })) });
    const { url } = await serve(async () => new Response(json, { headers: { "Content-Type": "application/json", ETag: '"v1"' } }));
    const get = (encoding: string) => fetch(`${url}/api/calendar/events`, { headers: { "Accept-Encoding": encoding } });
    // fetch() decodes the body; the headers say what travelled.
    for (const encoding of ["br", "gzip"]) {
      const res = await get(encoding);
      expect(res.headers.get("content-encoding")).toBe(encoding);
      expect(res.headers.get("vary")).toMatch(/Accept-Encoding/i);
      expect(Number(res.headers.get("content-length"))).toBeLessThan(json.length);
      expect(await res.text()).toBe(json);
    }
    const plain = await get("identity");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(json);
  });

  it("answers 304 to a matching If-None-Match, and HEAD without a body", async () => {
    const { url } = await serve(async () => new Response("{}", { headers: { "Content-Type": "application/json", ETag: '"abc"' } }));
    await fetch(`${url}/api/x`);
    const conditional = await fetch(`${url}/api/x`, { headers: { "If-None-Match": 'W/"abc"' } });
    expect(conditional.status).toBe(304);
    const head = await fetch(`${url}/api/x`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("sends errors and no-store answers as rendered, without a second render, and never keeps them", async () => {
    const { url, renders } = await serve(async (path, nonce) =>
      path === "/broken"
        ? new Response(`<p nonce="${nonce}">down</p>`, { status: 502, headers: { "Content-Type": "text/html" } })
        : new Response("private", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } }),
    );
    const broken = await fetch(`${url}/broken`);
    expect(broken.status).toBe(502);
    expect(await broken.text()).toMatch(/^<p nonce="nonce-\d+">down<\/p>$/);
    expect((await fetch(`${url}/broken`)).status).toBe(502);
    const secret = await fetch(`${url}/private`);
    expect(secret.headers.get("cache-control")).toBe("no-store");
    expect(await secret.text()).toBe("private");
    // Each request rendered once, and nothing was kept.
    expect(renders).toEqual(["/broken", "/broken", "/private"]);
    expect((await fetch(`${url}/broken`, { method: "POST" })).status).toBe(299);
    expect(renders).toHaveLength(3);
  });

  it("leaves paths without a TTL and over-long URLs alone, and renders again once the TTL ends", async () => {
    const { url, renders } = await serve(page, (path) => (path === "/events" ? 100 : undefined));
    expect(await (await fetch(`${url}/about`)).text()).toBe("fell through");
    expect(await (await fetch(`${url}/events?${"q".repeat(600)}`)).text()).toBe("fell through");
    await fetch(`${url}/events`);
    await fetch(`${url}/events`);
    expect(renders).toEqual(["/events"]);
    await new Promise((r) => setTimeout(r, 150));
    await fetch(`${url}/events`);
    expect(renders).toEqual(["/events", "/events"]);
  });
});
