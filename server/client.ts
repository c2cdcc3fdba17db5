// Who sent a request and over what, as far as TRUST_PROXY lets us believe X-Forwarded-*: proxy-addr
// compiles the setting (as Express's `trust proxy` did) into `trust`.
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import proxyAddr from "proxy-addr";
import type { TrustProxy } from "~/env.server";

/** Whether the hop at `index` (0: the peer) with this address is a proxy we trust. */
export type Trust = (address: string, index: number) => boolean;

/** TRUST_PROXY as a trust function: every hop, none, a hop count, or addresses, subnets and proxy-addr's names. */
export function trustOf(setting: TrustProxy): Trust {
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  if (typeof setting === "number") return (_address, index) => index < setting;
  return proxyAddr.compile(setting);
}

export type Client = {
  /** The client's address: the peer, or the nearest untrusted address in X-Forwarded-For. */
  address: (req: IncomingMessage) => string;
  /** HTTPS to us, or to the trusted proxy that says so in X-Forwarded-Proto. */
  secure: (req: IncomingMessage) => boolean;
  /** Whether X-Forwarded-Host is believed (any proxy is trusted). */
  trustsProxy: boolean;
  /** The site's origin as this request reached it: Host, or a trusted proxy's first X-Forwarded-Host (both checked by limits.ts). */
  origin: (req: IncomingMessage) => string;
};

export function clientOf(trust: Trust, trustsProxy: boolean): Client {
  const client: Client = {
    address: (req) => proxyAddr(req, trust),
    secure(req) {
      const encrypted = (req.socket as Partial<TLSSocket>).encrypted === true;
      if (!trust(req.socket.remoteAddress ?? "", 0)) return encrypted;
      const header = req.headers["x-forwarded-proto"];
      const first = (typeof header === "string" ? header : "").split(",", 1)[0]?.trim();
      return first ? first === "https" : encrypted;
    },
    trustsProxy,
    origin(req) {
      const forwarded = req.headers["x-forwarded-host"];
      const host = (trustsProxy && typeof forwarded === "string" && forwarded.split(",")[0]?.trim()) || req.headers.host;
      return `${client.secure(req) ? "https" : "http"}://${host}`;
    },
  };
  return client;
}
