// The sign-in step on its own, with a clock of the test's and a stand-in for GitHub's token endpoint:
// a state past its 10 minutes is refused, at the callback and at the token address, and the code is
// not sent to GitHub; a state signed with another app's secret is refused; an answer from GitHub that
// is not a token or GitHub's error is a plain 502. (The whole flow, on the built server against
// the fake GitHub: tests/integration/github-oauth.test.ts.)
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createLogger } from "~/logger.server";
import { clientOf } from "./client";
import { githubSignIn } from "./github-oauth";
import { signInStates } from "./sign-in-state";
import { inOrder } from "./step";

let clock = 1_000_000;
const exchanges: string[] = [];
/** How the stand-in for GitHub answers the next exchange. */
let githubAnswer: "token" | "503" | "html" = "token";
let github: Server;
let site: Server;
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

beforeAll(async () => {
  // Stands for GitHub's token endpoint: counts the exchanges it is asked for.
  github = createServer((req, res) => {
    exchanges.push(req.url ?? "");
    if (githubAnswer === "503") return void res.writeHead(503, { "Content-Type": "text/html" }).end("<h1>Unicorn!</h1>");
    if (githubAnswer === "html") return void res.writeHead(200, { "Content-Type": "text/html" }).end("<h1>Sign in</h1>");
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ access_token: "gho_unit", scope: "public_repo" }));
  });
  await listen(github);
  const step = githubSignIn({
    clientId: "client",
    clientSecret: "secret",
    scope: "public_repo",
    githubUrl: urlOf(github),
    client: clientOf(() => false),
    logger: createLogger({ LOG_LEVEL: "silent", GOOGLE_API_KEY: undefined }),
    now: () => clock,
  });
  site = createServer(inOrder([step], (_req, res) => res.writeHead(404).end()));
  await listen(site);
});

// Each test counts the exchanges of its own requests, whatever ran before it.
beforeEach(() => {
  exchanges.length = 0;
});

afterAll(async () => {
  await Promise.all([github, site].map((server) => new Promise((resolve) => server.close(resolve))));
});

async function start(): Promise<{ state: string; cookie: string }> {
  const res = await fetch(`${urlOf(site)}/admin/auth`, { redirect: "manual" });
  expect(res.status).toBe(302);
  return {
    state: new URL(res.headers.get("location")!).searchParams.get("state")!,
    cookie: res.headers.getSetCookie()[0]!.split(";")[0]!,
  };
}
/** The token address, as the callback page's script asks it. */
const callback = ({ state, cookie }: { state: string; cookie: string }) =>
  fetch(`${urlOf(site)}/admin/auth/token?code=abc&state=${state}`, { headers: { Cookie: cookie, "X-Sign-In": "github" } });
const callbackPage = ({ state, cookie }: { state: string; cookie: string }) =>
  fetch(`${urlOf(site)}/admin/auth/callback?code=abc&state=${state}`, { headers: { Cookie: cookie } });

it("takes a state within its 10 minutes, and refuses one past them without asking GitHub", async () => {
  const fresh = await start();
  clock += 599_000;
  expect((await callbackPage(fresh)).status).toBe(200);
  expect((await callback(fresh)).status).toBe(200);
  expect(exchanges).toHaveLength(1);

  const late = await start();
  clock += 601_000;
  for (const res of [await callbackPage(late), await callback(late)]) {
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("This sign-in was started more than 10 minutes ago and has expired.");
  }
  expect(exchanges).toHaveLength(1);
});

it("refuses a state signed with another secret, or not signed, even with the cookie to match", async () => {
  for (const state of [
    signInStates("another app's secret").issue(clock),
    `${"a".repeat(32)}.${Math.floor(clock / 1000) + 60}.${"b".repeat(43)}`,
    "x",
  ]) {
    const res = await callback({ state, cookie: `admin-sign-in=${state}` });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("This sign-in was not started by this site.");
  }
  expect(exchanges).toEqual([]);
});

it.each(["503", "html"] as const)("says GitHub did not answer properly when its answer is %s, not a token", async (answer) => {
  githubAnswer = answer;
  try {
    const res = await callback(await start());
    expect(res.status).toBe(502);
    const html = await res.text();
    expect(html).toContain("GitHub did not answer properly when finishing your sign-in.");
    expect(html).not.toContain("Unicorn");
  } finally {
    githubAnswer = "token";
  }
});
