import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientOf, trustOf } from "./client";

const trustFor = trustOf;

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
    expect(clientOf(trustFor(2), true).address(request("10.0.0.2", { "x-forwarded-for": "198.51.100.1, 198.51.100.2" }))).toBe(
      "198.51.100.1",
    );
  });

  it("believes every hop when TRUST_PROXY is true, and subnets by prefix", () => {
    const forwarded = { "x-forwarded-for": "198.51.100.1, 10.1.2.3", "x-forwarded-proto": "https" };
    expect(clientOf(trustFor(true), true).address(request("203.0.113.9", forwarded))).toBe("198.51.100.1");
    const subnet = clientOf(trustFor(["10.0.0.0/8"]), true);
    expect(subnet.address(request("10.9.9.9", forwarded))).toBe("198.51.100.1");
    expect(subnet.secure(request("10.9.9.9", forwarded))).toBe(true);
    expect(subnet.address(request("11.0.0.1", forwarded))).toBe("11.0.0.1");
  });
});
