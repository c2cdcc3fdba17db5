// Who sent a request and over what, as far as TRUST_PROXY lets us believe X-Forwarded-*: proxy-addr
// compiles the setting (as Express's `trust proxy` did) into `trust`. Each forwarded header is believed
// only from a trusted hop: X-Forwarded-For address by address (proxy-addr), and X-Forwarded-Proto and
// -Host only when the peer itself is a trusted proxy, taking the value the outermost trusted proxy wrote.
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import proxyAddr from "proxy-addr";
import type { TrustProxy } from "~/env.server";

/** Whether the hop at `index` (0: the peer) with this address is a proxy we trust. */
export type Trust = (address: string, index: number) => boolean;

/** TRUST_PROXY as a trust function: none, a hop count, or addresses, subnets and proxy-addr's names. */
export function trustOf(setting: TrustProxy): Trust {
  if (setting === false || setting === 0) return () => false;
  if (typeof setting === "number") return (_address, index) => index < setting;
  return proxyAddr.compile(setting);
}

export type Client = {
  /** The client's address: the peer, or the nearest untrusted address in X-Forwarded-For. */
  address: (req: IncomingMessage) => string;
  /** HTTPS to us, or to the trusted proxy that says so in X-Forwarded-Proto. */
  secure: (req: IncomingMessage) => boolean;
  /** The host a trusted proxy says the request was for (X-Forwarded-Host), if one says so. */
  forwardedHost: (req: IncomingMessage) => string | undefined;
  /** The site's origin as this request reached it: Host, or a trusted proxy's X-Forwarded-Host (both checked by limits.ts). */
  origin: (req: IncomingMessage) => string;
};

/**
 * How many hops, from the peer outwards, are trusted proxies: 0 when the peer is not one. The
 * addresses are the peer's and X-Forwarded-For's, nearest first, as proxy-addr reads them.
 */
export function trustedHops(req: IncomingMessage, trust: Trust): number {
  const addresses = proxyAddr.all(req);
  let hops = 0;
  while (hops < addresses.length && trust(addresses[hops] as string, hops)) hops += 1;
  return hops;
}

/**
 * The value of a single-valued forwarded header (X-Forwarded-Proto, -Host) that a trusted proxy
 * wrote: none unless the peer is trusted. A proxy that appends (as for X-Forwarded-For) puts its
 * value after the client's, so the value the outermost of `hops` trusted proxies wrote is `hops`
 * from the end; a proxy that overwrites leaves one value, which is then the one.
 */
export function forwardedValue(req: IncomingMessage, name: "x-forwarded-proto" | "x-forwarded-host", hops: number): string | undefined {
  if (hops === 0) return undefined;
  const header = req.headers[name];
  const values = (typeof header === "string" ? header : "")
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
  if (values.length === 0) return undefined;
  return values[Math.max(0, values.length - hops)];
}

export function clientOf(trust: Trust): Client {
  const client: Client = {
    address: (req) => proxyAddr(req, trust),
    secure(req) {
      const encrypted = (req.socket as Partial<TLSSocket>).encrypted === true;
      const forwarded = forwardedValue(req, "x-forwarded-proto", trustedHops(req, trust));
      return forwarded ? forwarded.toLowerCase() === "https" : encrypted;
    },
    forwardedHost: (req) => forwardedValue(req, "x-forwarded-host", trustedHops(req, trust)),
    origin(req) {
      const host = client.forwardedHost(req) ?? req.headers.host;
      return `${client.secure(req) ? "https" : "http"}://${host}`;
    },
  };
  return client;
}
