// One complete answer kept in memory: status, headers, a strong ETag and the body in each encoding,
// compressed once. Every request for it gets the same bytes; only the CSP's upgrade-insecure-requests
// (HTTPS behind a trusted proxy) and the per-connection headers differ.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import type { IncomingMessage, ServerResponse } from "node:http";
import Negotiator from "negotiator";
import { inlineScriptHashes, type CspFor } from "./security";

export type Encoding = "br" | "gzip" | "identity";

export type StoredAnswer = {
  status: number;
  /** Headers as rendered (content type, Cache-Control, Location…), without length, encoding, ETag or Vary. */
  headers: [string, string][];
  /** The CSP with this body's inline script hashes, for plain HTTP and HTTPS; absent for bodies that are not HTML. */
  csp?: { http: string; https: string };
  /** Strong ETags, one per encoding (a compressed body is another representation). */
  etags: Record<Encoding, string>;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  byteLength: number;
};

const COMPRESSIBLE = /^(text\/|application\/(json|xml|ld\+json))/;
/**
 * Brotli's quality for a body of this size: 10 up to 64 KB, a page. 11 saves a few hundred bytes there for
 * three times the CPU, paid by the first visitor's wait and at every start (measured in CPU time: an
 * event's page of 30 KB, 61 ms at 11 for 5,951 bytes, 19 ms at 10 for 6,165; the home page of 42 KB, 66 ms
 * at 11 for 7,355, 19 ms at 10 for 7,518). 8 above, where 10 and 11 cost far more for little (an events
 * archive page of 115 KB, rendered when first asked for, 268 ms at 11, 54 ms at 10, 6 ms at 8 for 13%
 * more bytes than 11 and as many as 9; the API's 5.9 MB for 3,000 events, 1.4 s at 11, 251 ms at 9,
 * 172 ms at 8 for 0.2% more bytes than 9); 5 above 8 MB.
 */
function brotliQualityFor(bytes: number): number {
  if (bytes <= 64 * 1024) return 10;
  return bytes <= 8 * 1024 * 1024 ? 8 : 5;
}
// zlib's callback forms run on libuv's thread pool: compressing a big answer never holds the event loop.
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const NOT_KEPT_HEADERS = new Set(["content-length", "content-encoding", "vary", "etag", "content-security-policy", "set-cookie"]);
/** Bodies smaller than this are not worth compressing. */
const MIN_COMPRESSED_BYTES = 256;

/** If-None-Match (weak comparison, lists and "*" included) names this ETag. */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}

/** Reads a rendered answer into memory, with the store's `cacheControl` in place of any the route set. */
export async function storeAnswer(
  response: globalThis.Response,
  { csp, cacheControl }: { csp: CspFor; cacheControl: string },
): Promise<StoredAnswer> {
  const type = response.headers.get("Content-Type") ?? "";
  // Bytes as sent: a PNG is not text. Only HTML is read as text, for its inline scripts' hashes.
  const identity = Buffer.from(await response.arrayBuffer());
  const headers = [...response.headers].filter(([name]) => !NOT_KEPT_HEADERS.has(name) && name !== "cache-control");
  headers.push(["cache-control", cacheControl]);
  const bodies: StoredAnswer["bodies"] = { identity };
  if (COMPRESSIBLE.test(type) && identity.length >= MIN_COMPRESSED_BYTES) {
    const brotli = { [zlib.BROTLI_PARAM_QUALITY]: brotliQualityFor(identity.length), [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length };
    [bodies.br, bodies.gzip] = await Promise.all([brotliAsync(identity, { params: brotli }), gzipAsync(identity, { level: 9 })]);
  }
  let scriptHashes: string[] | undefined;
  if (type.startsWith("text/html")) scriptHashes = inlineScriptHashes(identity.toString("utf8"));
  const csps = scriptHashes ? { http: csp(false, scriptHashes), https: csp(true, scriptHashes) } : undefined;
  return stored(response.status, headers, bodies, csps);
}

/** A file of the client build kept in memory, with the .br and .gz made at build time when there are. */
export function storeFile(bodies: StoredAnswer["bodies"], { type, cacheControl }: { type: string; cacheControl: string }): StoredAnswer {
  return stored(
    200,
    [
      ["content-type", type],
      ["cache-control", cacheControl],
    ],
    bodies,
  );
}

function stored(status: number, headers: [string, string][], bodies: StoredAnswer["bodies"], csp?: StoredAnswer["csp"]): StoredAnswer {
  const tag = createHash("sha256").update(bodies.identity).digest("base64url").slice(0, 27);
  return {
    status,
    headers,
    csp,
    etags: { identity: `"${tag}"`, br: `"${tag}-br"`, gzip: `"${tag}-gz"` },
    bodies,
    byteLength: bodies.identity.length + (bodies.br?.length ?? 0) + (bodies.gzip?.length ?? 0) + 1024,
  };
}

// Clients send a handful of distinct Accept-Encoding values; negotiating each once is enough.
const negotiated = new Map<string, Encoding>();
const MAX_NEGOTIATED = 256;
const OFFERED: Encoding[] = ["br", "gzip", "identity"];

/** The encoding to send: the client's preference among br, gzip and identity; brotli when it likes both equally. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  const key = acceptEncoding ?? "";
  let choice = negotiated.get(key);
  if (choice === undefined) {
    const headers = acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
    // Among equally acceptable encodings, brotli first (the smallest), as the static server did.
    const negotiator = new Negotiator({ headers }) as Negotiator & {
      encoding(available: string[], options: { preferred: string[] }): string | undefined;
    };
    choice = (negotiator.encoding(OFFERED, { preferred: OFFERED }) as Encoding | undefined) ?? "identity";
    if (negotiated.size >= MAX_NEGOTIATED) negotiated.clear();
    negotiated.set(key, choice);
  }
  return choice;
}

/** Sends a stored answer: 304 when If-None-Match names it, the body in the best encoding otherwise (none for HEAD). */
export function sendStored(req: IncomingMessage, res: ServerResponse, answer: StoredAnswer, secure: boolean): void {
  const compressed = answer.bodies.br !== undefined || answer.bodies.gzip !== undefined;
  const wanted = compressed ? chooseEncoding(req.headers["accept-encoding"]) : "identity";
  const encoding: Encoding = answer.bodies[wanted] ? wanted : "identity";
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  if (answer.csp) res.setHeader("Content-Security-Policy", secure ? answer.csp.https : answer.csp.http);
  if (compressed) res.setHeader("Vary", "Accept-Encoding");
  if (answer.status === 200) res.setHeader("ETag", answer.etags[encoding]);
  // Any of the three tags: the client's copy is this content, in whichever encoding it came (RFC 9110 13.1.2).
  const ifNoneMatch = req.headers["if-none-match"] ?? null;
  if (answer.status === 200 && Object.values(answer.etags).some((tag) => matchesEtag(ifNoneMatch, tag))) {
    res.removeHeader("Content-Type");
    res.writeHead(304);
    res.end();
    return;
  }
  const body = answer.bodies[encoding] as Buffer;
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.writeHead(answer.status);
  res.end(req.method === "HEAD" ? undefined : body);
}
