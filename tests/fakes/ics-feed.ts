// A tiny static iCalendar feed server over real HTTP on 127.0.0.1, port 0, serving fixture files.
import { readFileSync } from "node:fs";
import { writeOversized } from "./oversized-body";
import { startLoopbackServer } from "./loopback-server";

export type IcsFault =
  | "hang" // accepts the request and never answers
  | "resetMidBody" // 200 headers and half of the file, then the connection drops
  | "malformed" // 200 text/calendar that is not iCalendar
  | "oversized"; // the file padded past 6 MB (valid iCalendar), streamed without Content-Length

export type FakeIcsFeed = {
  /** URL of a served file, e.g. feed.urlOf("weekly-exdate-override.ics"). */
  urlOf: (name: string) => string;
  requestCount: () => number;
  /** Answer every request with this status (and a short text body) instead of the file; undefined restores. */
  failWith: (status: number | undefined) => void;
  /** Answer every request with this fault instead of the file; undefined restores. */
  setFault: (fault: IcsFault | undefined) => void;
  /** How long each "hang" request was held before the client gave up, in ms. */
  hangs: number[];
  close: () => Promise<void>;
};

/** Serves fixtures of tests/fixtures/ by name, or feeds given as text (`{ "name.ics": text }`). */
export async function startFakeIcsFeed(feeds: string[] | Record<string, string>): Promise<FakeIcsFeed> {
  const texts = Array.isArray(feeds)
    ? feeds.map((name) => [name, readFileSync(new URL(name, new URL("../fixtures/", import.meta.url)), "utf8")] as const)
    : Object.entries(feeds);
  const bodies = new Map(texts.map(([name, text]) => [`/${name}`, text]));
  let count = 0;
  let failure: number | undefined;
  let fault: IcsFault | undefined;
  const hangs: number[] = [];
  const server = await startLoopbackServer((req, res) => {
    count++;
    const body = bodies.get(new URL(req.url ?? "/", "http://fake").pathname);
    if (failure) {
      res.writeHead(failure, { "content-type": "text/plain" });
      return res.end("failure");
    }
    if (!body || req.method !== "GET") {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("not found");
    }
    if (fault === "hang") {
      const started = Date.now();
      res.on("close", () => hangs.push(Date.now() - started));
      return;
    }
    if (fault === "resetMidBody") {
      res.writeHead(200, { "content-type": "text/calendar; charset=utf-8", "content-length": String(Buffer.byteLength(body)) });
      res.write(body.slice(0, body.length >> 1), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    if (fault === "malformed") {
      res.writeHead(200, { "content-type": "text/calendar; charset=utf-8" });
      return res.end("<html><body>Calendar moved</body></html>");
    }
    if (fault === "oversized") {
      // A long X- property before END:VCALENDAR: only the size is wrong.
      const end = body.lastIndexOf("END:VCALENDAR");
      return writeOversized(res, "text/calendar; charset=utf-8", `${body.slice(0, end)}X-PADDING:`, `\r\n${body.slice(end)}`);
    }
    res.writeHead(200, { "content-type": "text/calendar; charset=utf-8" });
    res.end(body);
  });
  return {
    urlOf: (name) => `${server.origin}/${name}`,
    requestCount: () => count,
    failWith: (status) => void (failure = status),
    setFault: (next) => void (fault = next),
    hangs,
    close: server.close,
  };
}
