import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "~/logger.server";
import { answerError, pathOfTarget } from "./errors";
import { requestLogging } from "./logging";
import { inOrder, type Step } from "./step";

const lines: Array<Record<string, unknown>> = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let url = "";
let close = () => {};
beforeAll(async () => {
  const failing: Record<string, Step> = {
    "/boom": () => {
      throw new Error(`secret detail at ${process.cwd()}/server/x.ts`);
    },
    "/api/boom": (_req, _res, next) => next(new Error("secret API detail")),
    "/uri": () => {
      decodeURIComponent("%");
    },
    "/too-large": () => {
      throw Object.assign(new Error("payload too large from some-library 1.2.3"), { status: 413 });
    },
    "/late": (_req, res) => {
      res.write("partial");
      throw new Error("after the headers");
    },
  };
  const route: Step = (req, res, next) => failing[pathOfTarget(req.url)]?.(req, res, next);
  // The site's chain ends the same way: any error goes to answerError.
  const listener = inOrder(
    [requestLogging(createLogger({ LOG_LEVEL: "info", GOOGLE_API_KEY: undefined }, stream)), route],
    (req, res, error) => answerError(error, req, res),
  );
  const server = createServer(listener).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe("answerError", () => {
  it("answers a thrown error with 500 and a sentence, logged with the request id", async () => {
    const res = await fetch(`${url}/boom`);
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.text();
    expect(body).toBe("Something went wrong on our side. Please try again in a moment.\n");
    const id = res.headers.get("x-request-id");
    await expect.poll(() => lines.find((l) => (l.req as { id?: string } | undefined)?.id === id)).toBeDefined();
    const line = lines.find((l) => (l.req as { id?: string }).id === id)!;
    expect(line).toMatchObject({ level: "error", msg: "request failed", res: { status: 500 }, err: { type: "Error" } });
    expect(String((line.err as { message: string }).message)).toContain("secret detail");
  });

  it("answers JSON under /api, without the error's message", async () => {
    const res = await fetch(`${url}/api/boom`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Something went wrong on our side. Please try again in a moment." });
  });

  it("keeps a library's 4xx status without its message, and makes URIError a 400", async () => {
    const large = await fetch(`${url}/too-large`);
    expect(large.status).toBe(413);
    expect(await large.text()).toBe("Payload Too Large\n");
    const uri = await fetch(`${url}/uri`);
    expect(uri.status).toBe(400);
    expect(await uri.text()).toBe("Bad Request\n");
  });

  it("cuts a response whose headers were already sent", async () => {
    await expect(fetch(`${url}/late`).then((r) => r.text())).rejects.toThrow();
  });
});
