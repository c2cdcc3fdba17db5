// One rendered answer kept in memory, and what a request gets from it: status, headers and body
// in the encoding it accepts, with its own CSP nonce in the HTML. Both paths that answer from
// memory (the Express middleware and the fast lane) build their answer here.
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import Negotiator from "negotiator";
import { matchesEtag } from "~/lib/etag.server";
import { compileGzipTemplate, type GzipTemplate } from "./gzip-template";

export type Encoding = "br" | "gzip" | "identity";

export type CachedResponse = {
  /** False for an answer that is sent to the requests that asked for it, and never kept. */
  keep: boolean;
  status: number;
  /** The rendered headers, without length, encoding and Vary (set per answer). */
  headers: [string, string][];
  etag?: string;
  /** Encodings this body can be sent in, best first. */
  encodings: readonly Encoding[];
  body: (encoding: Encoding, nonce: string) => Buffer;
  byteLength: number;
};

export type Answer = { status: number; headers: [string, string][]; body: Buffer };

const COMPRESSIBLE = /^(text\/|application\/(json|xml|ld\+json))/;
const BEST_BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } };
const NOT_KEPT_HEADERS = new Set(["content-length", "content-encoding", "vary"]);

/** Reads a rendered answer into memory; `placeholder` marks where each request's nonce goes. */
export async function toCachedResponse(response: globalThis.Response, placeholder: string): Promise<CachedResponse> {
  const cacheControl = response.headers.get("Cache-Control") ?? "";
  const type = response.headers.get("Content-Type") ?? "";
  const keep = response.status === 200 && !/no-store|private/.test(cacheControl) && !response.headers.has("Set-Cookie");
  const text = await response.text();
  const base = {
    keep,
    status: response.status,
    headers: [...response.headers].filter(([name]) => !NOT_KEPT_HEADERS.has(name)),
    etag: response.headers.get("ETag") ?? undefined,
  };
  const identity = Buffer.from(text);
  if (text.includes(placeholder)) return { ...base, ...withNonce(text, placeholder, keep) };
  if (!keep || !COMPRESSIBLE.test(type)) return { ...base, encodings: ["identity"], body: () => identity, byteLength: identity.length };
  // Compressed once, at the best ratio, when cached.
  const encoded = { br: brotliCompressSync(identity, BEST_BROTLI), gzip: gzipSync(identity, { level: 9 }), identity };
  return {
    ...base,
    encodings: ["br", "gzip", "identity"],
    body: (encoding) => encoded[encoding],
    byteLength: identity.length + encoded.br.length + encoded.gzip.length,
  };
}

/** HTML whose nonce changes per request: gzip from a template when kept, or plain text. */
function withNonce(text: string, placeholder: string, keep: boolean): Pick<CachedResponse, "encodings" | "body" | "byteLength"> {
  const parts = text.split(placeholder).map((part) => Buffer.from(part));
  const plain = (nonce: string) => Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [Buffer.from(nonce), part])));
  // An answer sent once (an error page) is not worth compiling.
  const template: GzipTemplate | undefined = keep ? compileGzipTemplate(text, placeholder) : undefined;
  const gzip = (nonce: string) =>
    template && nonce.length === template.holeLength ? template.fill(nonce) : gzipSync(plain(nonce), { level: 1 });
  return {
    encodings: ["gzip", "identity"],
    body: (encoding, nonce) => (encoding === "gzip" ? gzip(nonce) : plain(nonce)),
    byteLength: text.length * 2 + (template?.byteLength ?? 0),
  };
}

// Clients send a handful of distinct Accept-Encoding values; negotiating each once is enough.
const negotiated = new Map<string, Encoding>();
const MAX_NEGOTIATED = 256;

/** The encoding to send: the client's preference among what we have, as Express would pick it. */
export function chooseEncoding(acceptEncoding: string | undefined, offered: readonly Encoding[]): Encoding {
  if (offered.length === 1) return "identity";
  const key = `${offered.join()}|${acceptEncoding ?? ""}`;
  let choice = negotiated.get(key);
  if (choice === undefined) {
    const headers = acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
    choice = (new Negotiator({ headers }).encoding([...offered]) as Encoding | undefined) ?? "identity";
    if (negotiated.size >= MAX_NEGOTIATED) negotiated.clear();
    negotiated.set(key, choice);
  }
  return choice;
}

export type AnswerRequest = { method: string; ifNoneMatch: string | undefined; acceptEncoding: string | undefined };

/** What a request gets from a cached response (the body is empty for HEAD and 304). */
export function answerFrom(entry: CachedResponse, request: AnswerRequest, nonce: string): Answer {
  // An origin answers If-None-Match whatever the request's Cache-Control says (RFC 9110 13.1.2).
  if (entry.keep && entry.etag && matchesEtag(request.ifNoneMatch ?? null, entry.etag)) {
    const headers = entry.headers.filter(([name]) => name !== "content-type");
    return { status: 304, headers: [...headers, ["Vary", "Accept-Encoding"]], body: Buffer.alloc(0) };
  }
  const encoding = chooseEncoding(request.acceptEncoding, entry.encodings);
  const body = entry.body(encoding, nonce);
  const headers: [string, string][] = [...entry.headers, ["Vary", "Accept-Encoding"]];
  if (encoding !== "identity") headers.push(["Content-Encoding", encoding]);
  headers.push(["Content-Length", String(body.length)]);
  return { status: entry.status, headers, body: request.method === "HEAD" ? Buffer.alloc(0) : body };
}
