// Security headers on every response (helmet), with a Content-Security-Policy that allows only
// our own files plus inline scripts carrying this response's nonce.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import helmet from "helmet";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express declares Locals in this namespace
  namespace Express {
    interface Locals {
      /** This response's CSP nonce (base64, 128 random bits). */
      cspNonce: string;
    }
  }
}

export type CspOptions = {
  /** Origins the page may frame (the calendar embed); none when empty. */
  frameOrigins: string[];
  /** Origins forms may submit to besides our own (the contact survey). */
  formOrigins: string[];
  /** Vite's dev server: inline scripts and styles without nonces, eval, and its websocket. */
  development: boolean;
};

type DirectiveValue = string | ((req: IncomingMessage, res: ServerResponse) => string);

const nonceSource = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${(res as Response).locals.cspNonce}'`;

/** The CSP directives (helmet's camelCase names); `https` adds upgrade-insecure-requests. */
export function cspDirectives({ frameOrigins, formOrigins, development }: CspOptions, https: boolean): Record<string, DirectiveValue[] | null> {
  return {
    defaultSrc: ["'self'"],
    // Every inline script carries the nonce (React Router's and React's); files come from us.
    // In development Vite and React Router inject scripts and styles that have no nonce.
    scriptSrc: development ? ["'self'", "'unsafe-inline'", "'unsafe-eval'"] : ["'self'", nonceSource],
    scriptSrcAttr: ["'none'"],
    // No inline styles at all in the server HTML; React sets styles through the CSSOM, which CSP allows.
    styleSrc: development ? ["'self'", "'unsafe-inline'"] : ["'self'", nonceSource],
    imgSrc: ["'self'"],
    fontSrc: ["'self'"],
    // fetch() of the API, route data (.data) and lazy route discovery (/__manifest); Vite's HMR socket in development.
    connectSrc: development ? ["'self'", "ws:", "wss:"] : ["'self'"],
    frameSrc: frameOrigins.length > 0 ? frameOrigins : ["'none'"],
    formAction: ["'self'", ...formOrigins],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    frameAncestors: ["'none'"],
    manifestSrc: ["'self'"],
    workerSrc: ["'none'"],
    upgradeInsecureRequests: https ? [] : null,
  };
}

/**
 * Features the site never uses, refused to us and to anything we frame. Only names Chromium
 * recognises: it logs a console error for any other (tests/e2e/csp.spec.ts fails on it).
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "browsing-topics=()",
  "camera=()",
  "clipboard-read=()",
  "display-capture=()",
  "encrypted-media=()",
  "gamepad=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "idle-detection=()",
  "interest-cohort=()",
  "local-fonts=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "otp-credentials=()",
  "payment=()",
  "publickey-credentials-create=()",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "window-management=()",
  "xr-spatial-tracking=()",
].join(", ");

/** Origin (scheme://host[:port]) of an absolute http(s) URL; undefined for anything else. */
export function originOf(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : undefined;
}

/** A CSP nonce: 128 random bits, base64 (24 characters). */
export const newNonce = () => randomBytes(16).toString("base64");

/** A fresh nonce per response, then every security header. */
export function securityHeaders(options: CspOptions): RequestHandler[] {
  const nonce: RequestHandler = (_req, res, next) => {
    res.locals.cspNonce = newNonce();
    next();
  };
  const common = helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: { policy: "same-origin" },
    crossOriginResourcePolicy: { policy: "same-origin" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xFrameOptions: { action: "deny" },
  });
  const csp = {
    http: helmet.contentSecurityPolicy({ useDefaults: false, directives: cspDirectives(options, false) }),
    https: helmet.contentSecurityPolicy({ useDefaults: false, directives: cspDirectives(options, true) }),
  };
  // Only over HTTPS: on plain HTTP the header means nothing, and behind a proxy TRUST_PROXY decides
  // whether its X-Forwarded-Proto makes req.secure true.
  const hsts = helmet.strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: true });
  const perRequest: RequestHandler = (req: Request, res, next) => {
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    if (!req.secure) return csp.http(req, res, next);
    hsts(req, res, () => csp.https(req, res, next));
  };
  return [nonce, common, perRequest];
}
