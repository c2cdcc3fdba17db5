import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientOf, trustOf } from "./client";

function request(peer: string, headers: Record<string, string> = {}, encrypted = false): IncomingMessage {
  return { socket: { remoteAddress: peer, encrypted }, connection: { remoteAddress: peer }, headers } as unknown as IncomingMessage;
}

describe("clientOf", () => {
  it("believes no forwarded header when no proxy is trusted", () => {
    for (const setting of [false, 0] as const) {
      const client = clientOf(trustOf(setting));
      const req = request("203.0.113.9", {
        "x-forwarded-for": "198.51.100.1",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "evil.example",
        host: "site.example",
      });
      expect(client.address(req)).toBe("203.0.113.9");
      expect(client.secure(req)).toBe(false);
      expect(client.forwardedHost(req)).toBeUndefined();
      expect(client.origin(req)).toBe("http://site.example");
      expect(client.secure(request("203.0.113.9", {}, true))).toBe(true);
    }
  });

  it("behind a trusted proxy, takes the nearest untrusted address, and the Proto and Host that proxy wrote", () => {
    const client = clientOf(trustOf(["loopback"]));
    const req = request("127.0.0.1", {
      "x-forwarded-for": "198.51.100.7, 127.0.0.1",
      "x-forwarded-proto": "https, http",
      "x-forwarded-host": "founders.example.org",
      host: "127.0.0.1:3000",
    });
    expect(client.address(req)).toBe("198.51.100.7");
    // Two trusted hops (the peer and 127.0.0.1): the outer one wrote "https", the inner "http".
    expect(client.secure(req)).toBe(true);
    expect(client.origin(req)).toBe("https://founders.example.org");
    expect(client.secure(request("127.0.0.1", { "x-forwarded-proto": "http" }))).toBe(false);
    expect(client.secure(request("127.0.0.1"))).toBe(false);
  });

  it("behind one proxy that appends, believes its value, not the client's written before it", () => {
    const client = clientOf(trustOf(["127.0.0.1"]));
    const req = request("127.0.0.1", {
      "x-forwarded-for": "203.0.113.66, 198.51.100.7",
      "x-forwarded-proto": "https, http",
      "x-forwarded-host": "evil.example, founders.example.org",
    });
    expect(client.address(req)).toBe("198.51.100.7");
    expect(client.secure(req)).toBe(false);
    expect(client.forwardedHost(req)).toBe("founders.example.org");
  });

  it("does not believe a peer outside the trusted list, for any of the three headers", () => {
    const client = clientOf(trustOf(["loopback"]));
    const req = request("203.0.113.9", {
      "x-forwarded-for": "198.51.100.7",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "evil.example",
      host: "site.example",
    });
    expect(client.address(req)).toBe("203.0.113.9");
    expect(client.secure(req)).toBe(false);
    expect(client.forwardedHost(req)).toBeUndefined();
    expect(client.origin(req)).toBe("http://site.example");
  });

  it("counts hops when TRUST_PROXY is a number", () => {
    const client = clientOf(trustOf(1));
    expect(client.address(request("10.0.0.2", { "x-forwarded-for": "198.51.100.1, 198.51.100.2" }))).toBe("198.51.100.2");
    expect(clientOf(trustOf(2)).address(request("10.0.0.2", { "x-forwarded-for": "198.51.100.1, 198.51.100.2" }))).toBe("198.51.100.1");
  });

  it("takes subnets by prefix", () => {
    const forwarded = { "x-forwarded-for": "198.51.100.1, 10.1.2.3", "x-forwarded-proto": "https" };
    const subnet = clientOf(trustOf(["10.0.0.0/8"]));
    expect(subnet.address(request("10.9.9.9", forwarded))).toBe("198.51.100.1");
    expect(subnet.secure(request("10.9.9.9", forwarded))).toBe(true);
    expect(subnet.address(request("11.0.0.1", forwarded))).toBe("11.0.0.1");
    expect(subnet.secure(request("11.0.0.1", forwarded))).toBe(false);
  });
});
