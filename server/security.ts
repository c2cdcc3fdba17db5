// Security headers on every response (helmet), with a Content-Security-Policy that allows only
// our own files plus the inline scripts whose sha256 hashes the answer carries. No nonce: a page
// many visitors share is the same bytes, headers included, so memory and CDNs can keep it.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import helmet from "helmet";
import type { Step } from "./step";

export type CspOptions = {
  /** Origins the page may frame (the calendar embed); none when empty. */
  frameOrigins: string[];
  /** Origins forms may submit to besides our own (the contact survey). */
  formOrigins: string[];
  /** Vite's dev server: inline scripts and styles, eval, and its websocket. */
  development: boolean;
};

/** The CSP directives; `scriptHashes` are the page's inline scripts ('sha256-…'); `https` adds upgrade-insecure-requests. */
export function cspDirectives(
  { frameOrigins, formOrigins, development }: CspOptions,
  { https, scriptHashes = [] }: { https: boolean; scriptHashes?: readonly string[] },
): [string, string[]][] {
  return [
    ["default-src", ["'self'"]],
    // Files from us; inline scripts only by hash. In development Vite injects scripts and styles freely.
    ["script-src", development ? ["'self'", "'unsafe-inline'", "'unsafe-eval'"] : ["'self'", ...scriptHashes]],
    ["script-src-attr", ["'none'"]],
    // No inline styles at all in the server HTML; React sets styles through the CSSOM, which CSP allows.
    ["style-src", development ? ["'self'", "'unsafe-inline'"] : ["'self'"]],
    ["img-src", ["'self'"]],
    ["font-src", ["'self'"]],
    // fetch() of the API, route data (.data) and lazy route discovery (/__manifest); Vite's HMR socket in development.
    ["connect-src", development ? ["'self'", "ws:", "wss:"] : ["'self'"]],
    ["frame-src", frameOrigins.length > 0 ? frameOrigins : ["'none'"]],
    ["form-action", ["'self'", ...formOrigins]],
    ...lockedDown(https),
  ];
}

/** What every policy of ours closes: plugins, base URLs, being framed, workers; HTTPS upgrades its requests. */
function lockedDown(https: boolean): [string, string[]][] {
  return [
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
    ["manifest-src", ["'self'"]],
    ["worker-src", ["'none'"]],
    ...(https ? [["upgrade-insecure-requests", []] as [string, string[]]] : []),
  ];
}

/** Where the content editor (/admin) reaches beyond us: GitHub's API, its status page (for an outage notice) and avatars. */
export const EDITOR_ORIGINS = {
  api: "https://api.github.com",
  status: "https://www.githubstatus.com",
  avatars: "https://avatars.githubusercontent.com",
} as const;

/**
 * The content editor's own policy (Sveltia CMS at /admin), as loose as it needs and no looser,
 * found by loading it in Chromium (tests/e2e/admin.spec.ts fails on any violation): its files and
 * its one inline module by hash, no eval; inline styles, which Svelte injects; images as blob:
 * and data: URLs (photo previews; it fetches its own built-in logo, a data: URL, at start-up);
 * GitHub's API and status page; GitHub avatars. It frames only its preview pane's blob: document
 * (which inherits this policy), and it is framed by no one.
 */
export function adminCspDirectives({
  https,
  scriptHashes = [],
}: {
  https: boolean;
  scriptHashes?: readonly string[];
}): [string, string[]][] {
  return [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", ...scriptHashes]],
    ["script-src-attr", ["'none'"]],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "blob:", "data:", EDITOR_ORIGINS.avatars]],
    ["font-src", ["'self'"]],
    ["connect-src", ["'self'", "blob:", "data:", EDITOR_ORIGINS.api, EDITOR_ORIGINS.status]],
    // The preview pane: an iframe the editor writes as a blob: document (it inherits this policy).
    ["frame-src", ["blob:"]],
    ["form-action", ["'none'"]],
    ...lockedDown(https),
  ];
}

/** The editor page's policy, for its inline script's hash. */
export const adminCspFor: CspFor = (https, scriptHashes) => cspHeader(adminCspDirectives({ https, scriptHashes }));

/** The header value of a policy. */
export function cspHeader(directives: [string, string[]][]): string {
  return directives.map(([name, sources]) => [name, ...sources].join(" ")).join("; ");
}

/**
 * Each inline script's text (what the browser hashes: the bytes between the tags), as a CSP
 * 'sha256-…' source, once each. Data blocks (JSON-LD) are included: harmless, and simpler.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", text = ""] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc=/i.test(attributes)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** The policy for a request's scheme, with a page's script hashes; built once per page and scheme by callers. */
export type CspFor = (https: boolean, scriptHashes?: readonly string[]) => string;

export function cspFor(options: CspOptions): CspFor {
  return (https, scriptHashes) => cspHeader(cspDirectives(options, { https, scriptHashes }));
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

/** The content editor's: the same, except that its "Paste Image" button may read an image from the clipboard. */
export const ADMIN_PERMISSIONS_POLICY = PERMISSIONS_POLICY.replace("clipboard-read=()", "clipboard-read=(self)");

/** Origin (scheme://host[:port]) of an absolute http(s) URL; undefined for anything else. */
export function originOf(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : undefined;
}

/** Every security header; the CSP here allows no inline script (stored pages replace it with their own). */
export function securityHeaders(options: CspOptions, secure: (req: IncomingMessage) => boolean): Step[] {
  const common = helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    // No opener policy on the public pages: "same-origin" made Chromium start a new renderer
    // process for a page opened from a blank tab (and isolates the site on Android), which cost
    // `/contact` and `/events` 150-300 ms of Total Blocking Time in Lighthouse (issue 22), to guard
    // pages that hold no visitor state. The content editor, which holds a GitHub token, keeps it
    // (server/admin.ts).
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: { policy: "same-origin" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xFrameOptions: { action: "deny" },
  });
  const policy = cspFor(options);
  const csp = { http: policy(false), https: policy(true) };
  // Only over HTTPS: on plain HTTP the header means nothing, and behind a proxy TRUST_PROXY decides
  // whether its X-Forwarded-Proto counts (server/client.ts).
  const hsts = helmet.strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: true });
  const perRequest: Step = (req, res, next) => {
    const https = secure(req);
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    res.setHeader("Content-Security-Policy", https ? csp.https : csp.http);
    if (!https) return next();
    hsts(req, res, next);
  };
  return [common, perRequest];
}
