// A tiny static iCalendar feed server over real HTTP on 127.0.0.1, port 0, serving fixture files.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeIcsFeed = {
  /** URL of a served file, e.g. feed.urlOf("weekly-exdate-override.ics"). */
  urlOf: (name: string) => string;
  requestCount: () => number;
  /** Answer every request with this status (and a short text body) instead of the file; undefined restores. */
  failWith: (status: number | undefined) => void;
  close: () => Promise<void>;
};

export async function startFakeIcsFeed(files: string[], directory = new URL("../fixtures/", import.meta.url)): Promise<FakeIcsFeed> {
  const bodies = new Map(files.map((name) => [`/${name}`, readFileSync(new URL(name, directory), "utf8")]));
  let count = 0;
  let failure: number | undefined;
  const server = createServer((req, res) => {
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
    res.writeHead(200, { "content-type": "text/calendar; charset=utf-8" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlOf: (name) => `http://127.0.0.1:${port}/${name}`,
    requestCount: () => count,
    failWith: (status) => void (failure = status),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
