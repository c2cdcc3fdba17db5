// "Sign in with GitHub" for the content editor, on the built server over HTTP, against the fake
// GitHub's OAuth app (which, like GitHub, allows only its registered callback): the start's redirect
// and cookie (its scope the same with drafts on), the callback's checks (a missing, wrong or forged state, no cookie: 4xx and no
// exchange), the callback page (no token in it; its script, run in jsdom, asks for the token only
// with the editor's window there, and posts it to the site's origin only), the token address (only the
// page's own call: its header, from its own origin), a replay (GitHub takes a code once), GitHub's
// refusals and absence, GET alone at the three addresses (no CORS preflight approved), the rate limit,
// the log (no token, no code, no secret), and the start-up check of the variables. Two instances:
// sign-in-instances.test.ts.
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAUTH_APP, oauthEnv, startSignInGitHub, type FakeGitHub } from "../fakes/github";
import { freePort } from "../support/http";
import { startExpectingFailure, startServer, type RunningServer } from "../support/start-server";

const TOKEN = "gho_FAKEoauthTOKEN0123456789abcdefghijkl";
const CALLBACK = "/admin/auth/callback";
const TOKEN_PATH = "/admin/auth/token";
/** The header the callback page's script sends with its call for the token. */
const FROM_PAGE = { "X-Sign-In": "github" };

/** The env of a server whose editor signs in through the fake's OAuth app (GitHub at `url`). */
const signInEnv = (url: string, extra: Record<string, string> = {}) => ({
  CONTENT_REPOSITORY: "founders/site",
  ...oauthEnv(url),
  ...extra,
});

let fake: FakeGitHub;
let server: RunningServer;

beforeAll(async () => {
  fake = await startSignInGitHub(TOKEN);
  // TRUST_PROXY: a request may say it came over HTTPS, as behind Render's proxy.
  server = await startServer(signInEnv(fake.url, { TRUST_PROXY: "loopback" }));
  // The OAuth app's callback, as its owner registers it: the address the site really sends.
  fake.registerCallback(`${server.url}${CALLBACK}`);
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
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

/** The message the callback page hands the editor (its data-message: a refusal's only). */
const messageOf = (html: string) => new JSDOM(html).window.document.getElementById("sign-in")?.dataset.message;

/** What the token address answers the page's script: the page's new words and the editor's message. */
type TokenAnswer = { title: string; text: string; message: string };

/** The callback page and then, as its script does, the token address; both answers. */
async function finish(callback: string, cookie: string): Promise<{ page: Response; html: string; token: Response; answer: TokenAnswer }> {
  const page = await get(callback, { Cookie: cookie });
  const html = await page.text();
  const token = await get(`${TOKEN_PATH}${callback.slice(CALLBACK.length)}`, { Cookie: cookie, ...FROM_PAGE });
  return { page, html, token, answer: (await token.json()) as TokenAnswer };
}

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
    // A nonce, its expiry (seconds) and their signature: no server keeps it.
    expect(state).toMatch(/^[\w-]{32}\.\d+\.[\w-]{43}$/);
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

  it("sends GitHub no callback but the registered one: another is sent back at once with GitHub's error, said plainly and logged for the operator", async () => {
    fake.registerCallback(`https://founders.example.org${CALLBACK}`);
    try {
      const before = fake.exchanges.length;
      const { cookie, location } = await start();
      const refused = await fetch(location, { redirect: "manual" });
      expect(refused.status).toBe(302);
      const back = new URL(refused.headers.get("location")!);
      expect(`${back.origin}${back.pathname}`).toBe(`https://founders.example.org${CALLBACK}`);
      expect(back.searchParams.get("error")).toBe("redirect_uri_mismatch");
      expect(fake.authorizations.at(-1)).toMatchObject({ redirectUri: `${server.url}${CALLBACK}`, refused: "redirect_uri_mismatch" });
      const res = await get(`${CALLBACK}${back.search}`, { Cookie: cookie });
      expect(res.status).toBe(502);
      expect(await res.text()).toContain("GitHub did not start this sign-in (redirect_uri_mismatch). Nothing was signed in.");
      expect(fake.exchanges.length).toBe(before);
      await server.logCaughtUp();
      expect(server.output()).toContain(`"callback":"${server.url}${CALLBACK}"`);
      expect(server.output()).toContain("GitHub sign-in: GitHub refused the callback address");
    } finally {
      fake.registerCallback(`${server.url}${CALLBACK}`);
    }
  });

  it("asks the same scope with drafts on (CONTENT_DRAFTS): public_repo already opens, labels and merges pull requests", async () => {
    // Drafts' branches, pull requests, labels and merge are writes public_repo allows on a public repository (repo
    // on a private one), and reading a commit's deployments and statuses needs none: tests/e2e/editor-drafts.spec.ts
    // makes every one of those calls under this scope.
    const drafts = await startServer(signInEnv(fake.url, { CONTENT_DRAFTS: "on" }));
    try {
      const config = (await (await fetch(`${drafts.url}/admin/config.json`)).json()) as { publish_mode?: string };
      expect(config.publish_mode).toBe("editorial_workflow");
      const res = await fetch(`${drafts.url}/admin/auth?provider=github&site_id=127.0.0.1&scope=repo,user`, { redirect: "manual" });
      expect(new URL(res.headers.get("location")!).searchParams.get("scope")).toBe("public_repo");
    } finally {
      await drafts.stop();
    }
  });
});

describe("the three addresses", () => {
  const ADDRESSES = ["/admin/auth", `${CALLBACK}?code=x&state=y`, `${TOKEN_PATH}?code=x&state=y`];

  it("answer only GET: a HEAD neither starts a sign-in nor spends a code", async () => {
    for (const path of ADDRESSES) {
      const res = await fetch(`${server.url}${path}`, { method: "HEAD" });
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
    }
  });

  it("approve no CORS preflight: another site's OPTIONS for the page's own header gets a 405 and no Access-Control header", async () => {
    for (const path of ADDRESSES) {
      const res = await fetch(`${server.url}${path}`, {
        method: "OPTIONS",
        headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-sign-in" },
      });
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow"), path).toBe("GET");
      expect(
        [...res.headers.keys()].filter((name) => name.startsWith("access-control-")),
        path,
      ).toEqual([]);
    }
  });
});

describe("the callback (/admin/auth/callback)", () => {
  it("answers with a page that holds no token, then trades the code for the token at its script's call; a replay gets nothing", async () => {
    const before = fake.exchanges.length;
    const { cookie, location } = await start();
    const callback = await consent(location);
    expect(callback).toMatch(/^\/admin\/auth\/callback\?code=\w+&state=[\w.-]+$/);
    const { page, html, token, answer } = await finish(callback, cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    // Its opener (the editor) must keep its handle on it: no opener policy of its own.
    expect(page.headers.get("cross-origin-opener-policy")).toBeNull();
    // The cookie stays for the token address; the page holds no token and no message.
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(html).not.toContain(TOKEN);
    expect(messageOf(html)).toBeUndefined();
    expect(new JSDOM(html).window.document.getElementById("sign-in")?.dataset.token).toBe(TOKEN_PATH);

    // Its own strict policy: its one script by hash, a call to our own origin, nothing else but our favicon.
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const { createHash } = await import("node:crypto");
    const hash = `'sha256-${createHash("sha256").update(script).digest("base64")}'`;
    expect(page.headers.get("content-security-policy")).toBe(
      `default-src 'none'; script-src ${hash}; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );

    // The token address: the token, for the editor, and the cookie goes.
    expect(token.status).toBe(200);
    expect(token.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(token.headers.get("cache-control")).toBe("no-store");
    expect(token.headers.getSetCookie()).toEqual(["admin-sign-in=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"]);
    expect(answer).toEqual({
      title: "Signed in",
      text: expect.stringContaining("You are signed in with GitHub."),
      message: `authorization:github:success:${JSON.stringify({ token: TOKEN, provider: "github" })}`,
    });

    // One exchange, with the app's secret (the fake checks it) and the same callback address.
    expect(fake.exchanges.slice(before)).toEqual([
      { clientId: OAUTH_APP.clientId, code: expect.any(String), redirectUri: `${server.url}${CALLBACK}`, answer: "token" },
    ]);

    // A replay with the cookie kept (copied before it was cleared): GitHub has taken this code already.
    const replay = await get(`${TOKEN_PATH}${callback.slice(CALLBACK.length)}`, { Cookie: cookie, ...FROM_PAGE });
    expect(replay.status).toBe(502);
    const replayed = await replay.text();
    expect(replayed).toContain("GitHub did not accept this sign-in (bad_verification_code).");
    expect(replayed).not.toContain(TOKEN);
    expect(fake.exchanges.slice(before).map((exchange) => exchange.answer)).toEqual(["token", "bad_verification_code"]);
    // As a browser replays it (its cookie cleared): refused before GitHub is asked.
    expect((await get(callback)).status).toBe(400);
    expect((await get(`${TOKEN_PATH}${callback.slice(CALLBACK.length)}`, FROM_PAGE)).status).toBe(400);
    expect(fake.exchanges.length).toBe(before + 2);
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
      // Its first character changed (a random state starts with "x" once in 64 times).
      (s: { state: string; cookie: string }) => ({
        query: `code=abc&state=${s.state.startsWith("x") ? "y" : "x"}${s.state.slice(1)}`,
        cookie: s.cookie,
      }),
      "does not match",
    ],
    [
      "with a state and cookie the server never gave",
      () => ({ query: `code=abc&state=${"f".repeat(43)}`, cookie: `admin-sign-in=${"f".repeat(43)}` }),
      "was not started by this site",
    ],
    [
      "with a state and cookie altered together (a later expiry)",
      (s: { state: string; cookie: string }) => {
        const [nonce, expires, mac] = s.state.split(".");
        const later = `${nonce}.${Number(expires) + 86_400}.${mac}`;
        return { query: `code=abc&state=${later}`, cookie: `admin-sign-in=${later}` };
      },
      "was not started by this site",
    ],
  ])(
    "refuses a callback %s with a 400 in plain words and a way back, the token address the same, and never exchanges the code",
    async (_name, make, words) => {
      const before = fake.exchanges.length;
      const { query, cookie } = make(await start());
      const res = await get(`${CALLBACK}?${query}`, cookie ? { Cookie: cookie } : {});
      expect(res.status).toBe(400);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const html = await res.text();
      expect(html).toContain(words);
      expect(html).toContain('<a href="/admin">Back to the content editor</a>');
      expect(messageOf(html)).toMatch(/^authorization:github:error:\{"provider":"github","error":"[^"]+"\}$/);
      // And the token address, asked directly, refuses the same.
      const token = await get(`${TOKEN_PATH}?${query}`, { ...(cookie ? { Cookie: cookie } : {}), ...FROM_PAGE });
      expect(token.status).toBe(400);
      expect(((await token.json()) as TokenAnswer).text).toContain(words);
      expect(fake.exchanges.length).toBe(before);
    },
  );

  it("says so when the volunteer cancels on GitHub's screen (403), without an exchange", async () => {
    const before = fake.exchanges.length;
    const { cookie, location } = await start();
    const res = await get(await consent(location, "deny"), { Cookie: cookie });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("You did not allow the content editor to use your GitHub account, so you are not signed in.");
    expect(fake.exchanges.length).toBe(before);
  });

  /** The callback page run in jsdom at its address, its `fetch` the real one (with the browser's cookie), and an opener if given. */
  function runPage(html: string, callback: string, cookie: string, opener?: unknown) {
    const calls: string[] = [];
    const popup = new JSDOM(html, {
      url: `${server.url}${callback}`,
      runScripts: "dangerously",
      beforeParse(window) {
        Object.defineProperty(window, "opener", { value: opener ?? null });
        Object.defineProperty(window, "fetch", {
          value: (url: string, init: RequestInit) => {
            calls.push(url);
            return fetch(new URL(url, `${server.url}${callback}`), { ...init, headers: { ...(init.headers as object), Cookie: cookie } });
          },
        });
      },
    });
    return { popup, calls };
  }

  it("asks for the token only when the editor's window echoes, from our origin, and posts it to our origin only", async () => {
    const before = fake.exchanges.length;
    const { cookie, location } = await start();
    const callback = await consent(location);
    const html = await (await get(callback, { Cookie: cookie })).text();
    // The editor's window (same origin) as the popup's opener, its postMessage recorded.
    const editor = new JSDOM("<!doctype html><title>editor</title>", { url: `${server.url}/admin` });
    const posted: Array<[unknown, unknown]> = [];
    editor.window.postMessage = (message: unknown, targetOrigin: unknown) => void posted.push([message, targetOrigin]);
    const { popup, calls } = runPage(html, callback, cookie, editor.window);
    const success = `authorization:github:success:${JSON.stringify({ token: TOKEN, provider: "github" })}`;
    // First the handshake, to our origin; the code and state leave the address bar; it says it is finishing.
    expect(posted).toEqual([["authorizing:github", server.url]]);
    expect(popup.window.location.href).toBe(`${server.url}${CALLBACK}`);
    expect(popup.window.document.querySelector("h1")?.textContent).toBe("Signing in…");

    const echo = (origin: string, source: unknown = editor.window) =>
      popup.window.dispatchEvent(
        new popup.window.MessageEvent("message", { data: "authorizing:github", origin, source: source as Window }),
      );
    // An echo from another origin, or from another window, gets nothing, and no token is asked for.
    echo("https://evil.example");
    echo(server.url, new JSDOM("", { url: `${server.url}/` }).window);
    expect(calls).toEqual([]);
    echo(server.url);
    await expect.poll(() => posted.length).toBe(2);
    expect(calls).toHaveLength(1);
    expect(posted).toEqual([
      ["authorizing:github", server.url],
      [success, server.url],
    ]);
    expect(popup.window.document.querySelector("h1")?.textContent).toBe("Signed in");
    expect(fake.exchanges.length).toBe(before + 1);
    popup.window.close();
    editor.window.close();
  });

  it("with no editor window (opened in a tab of its own), says what to do, asks for nothing, and no token is made", async () => {
    const before = fake.exchanges.length;
    const { cookie, location } = await start();
    const callback = await consent(location);
    const html = await (await get(callback, { Cookie: cookie })).text();
    const { popup, calls } = runPage(html, callback, cookie);
    const main = popup.window.document.getElementById("sign-in")!;
    expect(main.querySelector("h1")?.textContent).toBe("Not signed in");
    expect(main.textContent).toContain("This page is not in the content editor's sign-in window");
    expect(main.textContent).toContain("Go back to the content editor and click Sign In with GitHub again.");
    expect(popup.window.location.href).toBe(`${server.url}${CALLBACK}`);
    expect(popup.window.document.documentElement.outerHTML).not.toContain(TOKEN);
    expect(calls).toEqual([]);
    expect(fake.exchanges.length).toBe(before);
    popup.window.close();
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

describe("the token address (/admin/auth/token)", () => {
  /** A sign-in started and allowed on GitHub's screen: the token address's query for it, and the browser's cookie. */
  async function allowed(): Promise<{ query: string; cookie: string }> {
    const { cookie, location } = await start();
    return { query: (await consent(location)).slice(CALLBACK.length), cookie };
  }

  it("refuses a call that is not the page's script's (a navigation: no header), before anything else", async () => {
    const before = fake.exchanges.length;
    const { query, cookie } = await allowed();
    const res = await get(`${TOKEN_PATH}${query}`, { Cookie: cookie });
    expect(res.status).toBe(400);
    expect(fake.exchanges.length).toBe(before);
  });

  it("refuses a call another site's page makes (Sec-Fetch-Site not same-origin), header and cookie and all: 403, no exchange", async () => {
    const before = fake.exchanges.length;
    const { query, cookie } = await allowed();
    for (const site of ["cross-site", "same-site", "none"]) {
      const res = await get(`${TOKEN_PATH}${query}`, { Cookie: cookie, ...FROM_PAGE, "Sec-Fetch-Site": site });
      expect(res.status, site).toBe(403);
      expect(await res.text(), site).not.toContain(TOKEN);
    }
    expect(fake.exchanges.length).toBe(before);
    // The page's own call, which says it is same-origin, is answered: the code was never spent.
    const own = await get(`${TOKEN_PATH}${query}`, { Cookie: cookie, ...FROM_PAGE, "Sec-Fetch-Site": "same-origin" });
    expect(own.status).toBe(200);
    expect(((await own.json()) as TokenAnswer).message).toContain(TOKEN);
    expect(fake.exchanges.slice(before).map((exchange) => exchange.answer)).toEqual(["token"]);
  });

  it("says so when GitHub refuses the code (502), naming GitHub's reason", async () => {
    const { cookie, state } = await start();
    const res = await get(`${TOKEN_PATH}?code=not-a-code-github-gave&state=${state}`, { Cookie: cookie, ...FROM_PAGE });
    expect(res.status).toBe(502);
    expect(((await res.json()) as TokenAnswer).text).toContain(
      "GitHub did not accept this sign-in (bad_verification_code). Nothing was signed in.",
    );
    expect(fake.exchanges.at(-1)).toMatchObject({ code: "not-a-code-github-gave", answer: "bad_verification_code" });
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
    const res = await fetch(`${other.url}${TOKEN_PATH}?code=abc&state=${state}`, { headers: { Cookie: cookie, ...FROM_PAGE } });
    expect(res.status).toBe(502);
    const answer = (await res.json()) as TokenAnswer;
    expect(answer.text).toContain("GitHub could not be reached to finish signing you in.");
    expect(answer.text).toContain("Go back to the content editor and click Sign In with GitHub again.");

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
