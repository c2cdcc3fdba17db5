import type { ServerResponse } from "node:http";

/** Past the events fetcher's 5 MB limit. */
const PADDING_BYTES = 6 * 1024 * 1024;

/**
 * Streams `head`, 6 MB of padding, then `tail`: a body that would parse, wrong only in size.
 * Streamed (no Content-Length), so only counting the bytes can catch it.
 */
export function writeOversized(res: ServerResponse, contentType: string, head: string, tail: string): void {
  res.writeHead(200, { "content-type": contentType });
  res.write(head);
  const chunk = "x".repeat(64 * 1024);
  let written = 0;
  const pump = () => {
    while (!res.destroyed && written < PADDING_BYTES) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    if (!res.destroyed) res.end(tail);
  };
  pump();
}
