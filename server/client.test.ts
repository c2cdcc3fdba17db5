import type { IncomingMessage } from "node:http";
import express from "express";
import { describe, expect, it } from "vitest";
import { clientOf, type Trust } from "./client";

/** Express's own compiled trust function for a TRUST_PROXY value, as site.ts uses it. */
const trustFor = (setting: boolean | number | string[]) => express().set("trust proxy", setting).get("trust proxy fn") as Trust;

function request(peer: string, headers: Record<string, string> = {}, encrypted = false): IncomingMessage {
  return { socket: { remoteAddress: peer, encrypted }, connection: { remoteAddress: peer }, headers } as unknown as IncomingMessage;
}

describe("clientOf", () => {
  it("believes no forwarded header when no proxy is trusted", () => {
    const client = clientOf(trustFor(false), false);
    const req = request("203.0.113.9", { "x-forwarded-for": "198.51.100.1", "x-forwarded-proto": "https" });
    expect(client.address(req)).toBe("203.0.113.9");
    expect(client.secure(req)).toBe(false);
    expect(client.secure(request("203.0.113.9", {}, true))).toBe(true);
  });

  it("behind a trusted proxy, takes the nearest untrusted address and the first X-Forwarded-Proto", () => {
    const client = clientOf(trustFor(["loopback"]), true);
    const req = request("127.0.0.1", { "x-forwarded-for": "198.51.100.7, 127.0.0.1", "x-forwarded-proto": "https, http" });
    expect(client.address(req)).toBe("198.51.100.7");
    expect(client.secure(req)).toBe(true);
    expect(client.secure(request("127.0.0.1", { "x-forwarded-proto": "http" }))).toBe(false);
    expect(client.secure(request("127.0.0.1"))).toBe(false);
  });

  it("does not believe a peer outside the trusted list", () => {
    const client = clientOf(trustFor(["loopback"]), true);
    const req = request("203.0.113.9", { "x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https" });
    expect(client.address(req)).toBe("203.0.113.9");
    expect(client.secure(req)).toBe(false);
  });

  it("counts hops when TRUST_PROXY is a number", () => {
    const client = clientOf(trustFor(1), true);
    expect(client.address(request("10.0.0.2", { "x-forwarded-for": "198.51.100.1, 198.51.100.2" }))).toBe("198.51.100.2");
  });
});
