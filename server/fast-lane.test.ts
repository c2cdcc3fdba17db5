import type { AddressInfo } from "node:net";
import express from "express";
import proxyaddr from "proxy-addr";
import { describe, expect, it } from "vitest";
import { isSecure } from "./fast-lane";

type Trust = (address: string | undefined, hop: number) => boolean;

/** What Express says of a request, and what the fast lane's own reading says, side by side. */
async function readings(trustProxy: unknown, headers: Record<string, string>) {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.get("/", (req, res) => {
    const trust = app.get("trust proxy fn") as Trust;
    res.json({ express: [req.secure, req.ip], fastLane: [isSecure(req, trust), proxyaddr(req, trust)] });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return (await (await fetch(`http://127.0.0.1:${port}/`, { headers })).json()) as { express: unknown; fastLane: unknown };
  } finally {
    server.close();
  }
}

describe("the fast lane's reading of scheme and client address", () => {
  const headerSets: Record<string, string>[] = [
    {},
    { "X-Forwarded-Proto": "https" },
    { "X-Forwarded-Proto": "https, http", "X-Forwarded-For": "203.0.113.9" },
    { "X-Forwarded-Proto": " http ", "X-Forwarded-For": "203.0.113.9, 198.51.100.2" },
    { "X-Forwarded-Proto": "" },
  ];
  it.each([false, true, "loopback", "10.0.0.1", 1, 2])("agrees with Express with trust proxy %j", async (trustProxy) => {
    for (const headers of headerSets) {
      const { express: expected, fastLane } = await readings(trustProxy, headers);
      expect(fastLane, JSON.stringify(headers)).toEqual(expected);
    }
  });
});
