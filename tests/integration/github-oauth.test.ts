// "Sign in with GitHub" for the content editor, on the built server over HTTP, against the fake
// GitHub's OAuth app: the start's redirect and cookie, the callback's checks (a missing, wrong,
// forged or reused state, no cookie: 4xx and no exchange), GitHub's refusals and absence, the
// callback page's headers and its message (run in jsdom: posted to the site's origin only), the
// rate limit, the log (no token, no code, no secret), and the start-up check of the variables.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initRepository, OAUTH_APP, oauthEnv, startFakeGitHub, type FakeGitHub } from "../fakes/github";
import { freePort } from "../support/http";
import { startExpectingFailure, startServer, type RunningServer } from "../support/start-server";

const TOKEN = "gho_FAKEoauthTOKEN0123456789abcdefghijkl";
const CALLBACK = "/admin/auth/callback";

/** The env of a server whose editor signs in through the fake's OAuth app (GitHub at `url`). */
const signInEnv = (url: string, extra: Record<string, string> = {}) => ({
  CONTENT_REPOSITORY: "founders/site",
  ...oauthEnv(url),
  ...extra,
});

let repoDir: string;
let fake: FakeGitHub;
let server: RunningServer;

beforeAll(async () => {
  repoDir = mkdtempSync(path.join(tmpdir(), "oauth-repo-"));
  writeFileSync(path.join(repoDir, "README.md"), "site\n");
  initRepository(repoDir, "main");
  fake = await startFakeGitHub({
    repoDir,
    owner: "founders",
    name: "site",
    branch: "main",
    token: TOKEN,
    login: "volunteer",
    oauthApp: OAUTH_APP,
  });
  // TRUST_PROXY: a request may say it came over HTTPS, as behind Render's proxy.
  server = await startServer(signInEnv(fake.url, { TRUST_PROXY: "loopback" }));
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
  rmSync(repoDir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { redirect: "manual", headers });

/** Starts a sign-in as the editor's popup does: the state GitHub is sent, and the cookie's name=value. */
async function start(): Promise<{ state: string; cookie: string; location: URL }> {
  const res = await get("/admin/auth?provider=github&site_id=127.0.0.1&scope=repo,user");
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  const cookie = res.headers.getSetCookie()[0]!.split(";")[0]!;
  return { state: location.searchParams.get("state")!, cookie, location };
}

/** Clicks Authorize (or Cancel) on the fake's consent screen: the callback address GitHub sends the browser to. */
async function consent(location: URL, decision: "allow" | "deny" = "allow"): Promise<string> {
  expect((await fetch(location)).status).toBe(200);
  const form = new URLSearchParams({
    redirect_uri: location.searchParams.get("redirect_uri")!,
    scope: location.searchParams.get("scope")!,
    state: location.searchParams.get("state")!,
    decision,
  });
  const res = await fetch(new URL("/login/oauth/authorize", location), { method: "POST", body: form, redirect: "manual" });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get("location")!);
  return `${back.pathname}${back.search}`;
}

/** The message the callback page hands the editor (its data-message). */
const messageOf = (html: string) => new JSDOM(html).window.document.getElementById("sign-in")?.dataset.message;

describe("the start (/admin/auth)", () => {
  it("sends the popup to GitHub's consent screen with the server's scope, its callback and a random state", async () => {
    const res = await get("/admin/auth?provider=github&site_id=127.0.0.1&scope=repo,user");
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${fake.url}/login/oauth/authorize`);
    const state = location.searchParams.get("state")!;
    expect(Object.fromEntries(location.searchParams)).toEqual({
      client_id: OAUTH_APP.clientId,
      redirect_uri: `${server.url}${CALLBACK}`,
      // The editor asked for repo,user: the server's scope is what GitHub is asked for.
      scope: "public_repo",
      state,
    });
    expect(state).toMatch(/^[\w-]{43}$/);
    // Bound to this browser by a short-lived cookie the page's scripts cannot read; not Secure over plain HTTP.
    expect(res.headers.getSetCookie()).toEqual([`admin-sign-in=${state}; Max-Age=600; Path=/; HttpOnly; SameSite=Lax`]);
    const again = new URL((await get("/admin/auth")).headers.get("location")!).searchParams.get("state");
    expect(again).not.toBe(state);
  });

  it("over HTTPS (a trusted proxy says so): a __Host- cookie, Secure, and the callback at the site's https address", async () => {
    const res = await get("/admin/auth", { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "founders.example.org" });
    const location = new URL(res.headers.get("location")!);
    const state = location.searchParams.get("state")!;
    expect(location.searchParams.get("redirect_uri")).toBe(`https://founders.example.org${CALLBACK}`);
    expect(res.headers.getSetCookie()).toEqual([`__Host-admin-sign-in=${state}; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax`]);
  });

  it("answers only GET: a HEAD neither starts a sign-in nor spends a code", async () => {
    for (const path of ["/admin/auth", `${CALLBACK}?code=x&state=y`]) {
      const res = await fetch(`${server.url}${path}`, { method: "HEAD" });
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
    }
  });
});

describe("the callback (/admin/auth/callback)", () => {
  it("trades GitHub's code for the token and hands it to the editor, on a page kept by no one; the same callback again is refused", async () => {
    const before = fake.exchanges.length;
    const { cookie, location } = await start();
    const callback = await consent(location);
    expect(callback).toMatch(/^\/admin\/auth\/callback\?code=\w+&state=[\w-]+$/);
    const res = await get(callback, { Cookie: cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    // Its opener (the editor) must keep its handle on it: no opener policy of its own.
    expect(res.headers.get("cross-origin-opener-policy")).toBeNull();
    expect(res.headers.getSetCookie()).toEqual(["admin-sign-in=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"]);
    const html = await res.text();
    expect(messageOf(html)).toBe(`authorization:github:success:${JSON.stringify({ token: TOKEN, provider: "github" })}`);
    expect(html).toContain("You are signed in with GitHub.");

    // Its own strict policy: its one script by hash, nothing else but our favicon.
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const { createHash } = await import("node:crypto");
    const hash = `'sha256-${createHash("sha256").update(script).digest("base64")}'`;
    expect(res.headers.get("content-security-policy")).toBe(
      `default-src 'none'; script-src ${hash}; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );

    // One exchange, with the app's secret (the fake checks it) and the same callback address.
    expect(fake.exchanges.slice(before)).toEqual([
      { clientId: OAUTH_APP.clientId, code: expect.any(String), redirectUri: `${server.url}${CALLBACK}`, answer: "token" },
    ]);

    // A replay of the same address, even with the cookie kept: refused, and the code is not sent again.
    const replay = await get(callback, { Cookie: cookie });
    expect(replay.status).toBe(400);
    const replayed = await replay.text();
    expect(replayed).toContain("This sign-in link has already been used, or has expired. Nothing was signed in.");
    expect(replayed).not.toContain(TOKEN);
    expect(fake.exchanges.length).toBe(before + 1);
  });

  it.each([
    [
      "without a state",
      (s: { state: string; cookie: string }) => ({ query: "code=abc", cookie: s.cookie }),
      "without the check that it is yours",
    ],
    [
      "without the cookie",
      (s: { state: string; cookie: string }) => ({ query: `code=abc&state=${s.state}`, cookie: "" }),
      "was not started in this browser",
    ],
    [
      "with a state that is not this browser's",
      (s: { state: string; cookie: string }) => ({ query: `code=abc&state=x${s.state.slice(1)}`, cookie: s.cookie }),
      "does not match",
    ],
    [
      "with a state and cookie the server never gave",
      () => ({ query: `code=abc&state=${"f".repeat(43)}`, cookie: `admin-sign-in=${"f".repeat(43)}` }),
      "already been used, or has expired",
    ],
  ])("refuses a callback %s with a 400 in plain words and a way back, and never exchanges the code", async (_name, make, words) => {
    const before = fake.exchanges.length;
    const { query, cookie } = make(await start());
    const res = await get(`${CALLBACK}?${query}`, cookie ? { Cookie: cookie } : {});
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain(words);
    expect(html).toContain('<a href="/admin">Back to the content editor</a>');
    expect(messageOf(html)).toMatch(/^authorization:github:error:\{"provider":"github","error":"[^"]+"\}$/);
    expect(fake.exchanges.length).toBe(before);
  });

  it("says so when the volunteer cancels on GitHub's screen (403), without an exchange", async () => {
    const before = fake.exchanges.length;
    const { cookie, location } = await start();
    const res = await get(await consent(location, "deny"), { Cookie: cookie });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("You did not allow the content editor to use your GitHub account, so you are not signed in.");
    expect(fake.exchanges.length).toBe(before);
  });

  it("says so when GitHub refuses the code (502), naming GitHub's reason", async () => {
    const { cookie, state } = await start();
    const res = await get(`${CALLBACK}?code=not-a-code-github-gave&state=${state}`, { Cookie: cookie });
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("GitHub did not accept this sign-in (bad_verification_code). Nothing was signed in.");
    expect(fake.exchanges.at(-1)).toMatchObject({ code: "not-a-code-github-gave", answer: "bad_verification_code" });
  });

  it("posts the token to the editor window on the site's own origin only, after its echo from that origin", async () => {
    const { cookie, location } = await start();
    const callback = await consent(location);
    const html = await (await get(callback, { Cookie: cookie })).text();
    // The editor's window (same origin) as the popup's opener, its postMessage recorded.
    const editor = new JSDOM("<!doctype html><title>editor</title>", { url: `${server.url}/admin` });
    const posted: Array<[unknown, unknown]> = [];
    editor.window.postMessage = (message: unknown, targetOrigin: unknown) => void posted.push([message, targetOrigin]);
    const popup = new JSDOM(html, {
      url: `${server.url}${callback}`,
      runScripts: "dangerously",
      beforeParse: (window) => Object.defineProperty(window, "opener", { value: editor.window }),
    });
    const success = `authorization:github:success:${JSON.stringify({ token: TOKEN, provider: "github" })}`;
    // First the handshake, to our origin; the code and state leave the address bar.
    expect(posted).toEqual([["authorizing:github", server.url]]);
    expect(popup.window.location.href).toBe(`${server.url}${CALLBACK}`);

    const echo = (origin: string, source: unknown = editor.window) =>
      popup.window.dispatchEvent(
        new popup.window.MessageEvent("message", { data: "authorizing:github", origin, source: source as Window }),
      );
    // An echo from another origin, or from another window, gets nothing.
    echo("https://evil.example");
    echo(server.url, new JSDOM("", { url: `${server.url}/` }).window);
    expect(posted).toHaveLength(1);
    echo(server.url);
    expect(posted).toEqual([
      ["authorizing:github", server.url],
      [success, server.url],
    ]);
    popup.window.close();
    editor.window.close();
  });

  it("writes neither the token, nor a code, nor the app's secret in any log line", async () => {
    await server.logCaughtUp();
    const log = server.output();
    expect(log).toContain(`"path":"${CALLBACK}"`);
    expect(log).toContain("GitHub sign-in: a volunteer signed in");
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(OAUTH_APP.clientSecret);
    expect(log).not.toContain("code=");
    for (const { code } of fake.exchanges) expect(log).not.toContain(code);
  });
});

describe("the editor with Sign in with GitHub", () => {
  it("offers it before the token, with the popup on the page's own origin, and lets the popup keep its opener", async () => {
    const page = await get("/admin");
    expect(page.headers.get("cross-origin-opener-policy")).toBe("same-origin-allow-popups");
    const html = await page.text();
    expect(html).toMatch(/CMS\.init\(\{config:\{backend:\{base_url:location\.origin\}\}\}\);<\/script>/);
    const config = (await (await get("/admin/config.json")).json()) as { backend: Record<string, unknown> };
    expect(config.backend).toMatchObject({ auth_methods: ["oauth", "token"], auth_endpoint: "admin/auth" });
  });
});

describe("GitHub unreachable, and the rate limit", () => {
  let other: RunningServer;
  beforeAll(async () => {
    other = await startServer(signInEnv(`http://127.0.0.1:${await freePort()}`, { RATE_LIMIT_PER_MINUTE: "3" }));
  });
  afterAll(() => other?.stop());

  it("says GitHub could not be reached (502), then refuses a fourth request in the minute like the API (429)", async () => {
    const started = await fetch(`${other.url}/admin/auth`, { redirect: "manual" });
    const state = new URL(started.headers.get("location")!).searchParams.get("state")!;
    const cookie = started.headers.getSetCookie()[0]!.split(";")[0]!;
    const res = await fetch(`${other.url}${CALLBACK}?code=abc&state=${state}`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(502);
    const html = await res.text();
    expect(html).toContain("GitHub could not be reached to finish signing you in.");
    expect(html).toContain('<a href="/admin">Back to the content editor</a>');

    expect((await fetch(`${other.url}/admin/auth`, { redirect: "manual" })).status).toBe(302);
    const refused = await fetch(`${other.url}/admin/auth`, { redirect: "manual" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    // The pages' budget is apart: the editor itself still loads.
    expect((await fetch(`${other.url}/admin`)).status).toBe(200);

    await other.logCaughtUp();
    expect(other.output()).toContain("GitHub sign-in: GitHub could not be reached to exchange the code");
    expect(other.output()).not.toContain(OAUTH_APP.clientSecret);
  });
});

describe("start-up", () => {
  it.each([
    [{ GITHUB_OAUTH_CLIENT_ID: OAUTH_APP.clientId }, "GITHUB_OAUTH_CLIENT_SECRET"],
    [{ GITHUB_OAUTH_CLIENT_SECRET: OAUTH_APP.clientSecret }, "GITHUB_OAUTH_CLIENT_ID"],
  ])("refuses to start with only one of the pair (%o), naming the missing one and echoing no value", async (env, missing) => {
    const { code, stderr } = await startExpectingFailure({ GITHUB_OAUTH_CLIENT_ID: "", GITHUB_OAUTH_CLIENT_SECRET: "", ...env });
    expect(code).not.toBe(0);
    expect(stderr).toContain(`${missing}: is required when`);
    for (const value of Object.values(env)) expect(stderr).not.toContain(value);
  });
});
