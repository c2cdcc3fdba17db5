// "Sign in with GitHub" on two instances behind one address (SITE_URL, as behind a load balancer that
// is not sticky): a sign-in started on one instance is finished on the other, because no instance
// keeps anything of it (the state is signed with a key both derive from the app's secret). Forged
// and expired states, another browser's cookie and no cookie are refused by either instance before
// GitHub is asked; a replay fails, as the fake, like GitHub, takes a code once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInStates } from "../../server/sign-in-state";
import { OAUTH_APP, oauthEnv, startSignInGitHub, type FakeGitHub } from "../fakes/github";
import { suiteClock } from "../support/clock";
import { startServer, type RunningServer } from "../support/start-server";

const TOKEN = "gho_FAKEtwoINSTANCEStoken0123456789abcdef";
/** The balancer's address: what both instances are told, and what GitHub sends the volunteer back to. */
const SITE_URL = "https://founders.example.org";
const CALLBACK = "/admin/auth/callback";
const TOKEN_PATH = "/admin/auth/token";
/** Over HTTPS the cookie is __Host-: the browser sees SITE_URL's scheme. */
const COOKIE = "__Host-admin-sign-in";
const SIGN_INS = 20;

let fake: FakeGitHub;
let instances: [RunningServer, RunningServer];

beforeAll(async () => {
  fake = await startSignInGitHub(TOKEN, `${SITE_URL}${CALLBACK}`);
  const env = { CONTENT_REPOSITORY: "founders/site", SITE_URL, ...oauthEnv(fake.url) };
  instances = await Promise.all([startServer(env), startServer(env)]);
});

afterAll(async () => {
  await Promise.all((instances ?? []).map((server) => server?.stop()));
  await fake?.close();
});

/** A request as the balancer passes it to one instance. */
const to = (server: RunningServer, target: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${target}`, { redirect: "manual", headers });

/** Starts a sign-in on `server`: the consent screen's address and the browser's cookie. */
async function start(server: RunningServer): Promise<{ location: URL; state: string; cookie: string }> {
  const res = await to(server, "/admin/auth");
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  expect(location.searchParams.get("redirect_uri")).toBe(`${SITE_URL}${CALLBACK}`);
  return { location, state: location.searchParams.get("state")!, cookie: res.headers.getSetCookie()[0]!.split(";")[0]! };
}

/** Authorize on the fake's consent screen: the callback's path and query GitHub sends the browser to. */
async function consent(location: URL): Promise<string> {
  expect((await fetch(location)).status).toBe(200);
  const form = new URLSearchParams({
    redirect_uri: location.searchParams.get("redirect_uri")!,
    scope: location.searchParams.get("scope")!,
    state: location.searchParams.get("state")!,
    decision: "allow",
  });
  const res = await fetch(new URL("/login/oauth/authorize", location), { method: "POST", body: form, redirect: "manual" });
  const back = new URL(res.headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(`${SITE_URL}${CALLBACK}`);
  return back.search;
}

/** The callback page on `server`, then its script's call for the token there: the two statuses and the message. */
async function finish(server: RunningServer, query: string, cookie?: string) {
  const cookies: Record<string, string> = cookie ? { Cookie: cookie } : {};
  const page = await to(server, `${CALLBACK}${query}`, cookies);
  const html = await page.text();
  const token = await to(server, `${TOKEN_PATH}${query}`, { ...cookies, "X-Sign-In": "github" });
  const { message } = (await token.json()) as { message: string };
  return { page: page.status, html, token: token.status, message };
}

const success = `authorization:github:success:${JSON.stringify({ token: TOKEN, provider: "github" })}`;

describe("two instances, no sticky sessions", () => {
  it(`finishes ${SIGN_INS} sign-ins, each started on one instance and finished on the other`, async () => {
    const before = fake.exchanges.length;
    let signedIn = 0;
    for (let i = 0; i < SIGN_INS; i++) {
      const [first, second] = i % 2 ? [instances[1], instances[0]] : [instances[0], instances[1]];
      const { location, cookie } = await start(first);
      const query = await consent(location);
      const finished = await finish(second, query, cookie);
      expect(finished.page).toBe(200);
      expect(finished.html).not.toContain(TOKEN);
      if (finished.token === 200 && finished.message === success) signedIn += 1;
    }
    expect(signedIn).toBe(SIGN_INS);
    expect(fake.exchanges.slice(before).map((exchange) => exchange.answer)).toEqual(Array(SIGN_INS).fill("token"));
  });

  it("refuses a forged state, an expired one, another browser's cookie and no cookie on either instance, asking GitHub nothing", async () => {
    const states = signInStates(OAUTH_APP.clientSecret);
    for (const [first, second] of [instances, [instances[1], instances[0]]] as const) {
      const before = fake.exchanges.length;
      const { location, state, cookie } = await start(first);
      const query = await consent(location);
      const code = new URLSearchParams(query).get("code")!;
      const other = await start(first);
      const forged = `${state.slice(0, -1)}${state.endsWith("A") ? "B" : "A"}`;
      // Issued on the servers' clock, the run's (tests/support/clock.ts).
      const expired = states.issue(suiteClock().now() - 601_000);
      const foreign = signInStates("another app's secret").issue(suiteClock().now());
      const attempts: Array<[string, string, string | undefined, string]> = [
        ["forged", `?code=${code}&state=${forged}`, `${COOKIE}=${forged}`, "was not started by this site"],
        ["signed with another secret", `?code=${code}&state=${foreign}`, `${COOKIE}=${foreign}`, "was not started by this site"],
        ["expired", `?code=${code}&state=${expired}`, `${COOKIE}=${expired}`, "has expired"],
        ["another browser's cookie", query, other.cookie, "does not match"],
        ["no cookie", query, undefined, "was not started in this browser"],
      ];
      for (const [name, attempt, withCookie, words] of attempts) {
        const answer = await finish(second, attempt, withCookie);
        expect([answer.page, answer.token], name).toEqual([400, 400]);
        expect(answer.message, name).toMatch(/^authorization:github:error:/);
        expect(answer.message, name).toContain(words);
      }
      expect(fake.exchanges.length).toBe(before);
      // The real browser still finishes its own sign-in afterwards: its code was never spent.
      expect((await finish(second, query, cookie)).message).toBe(success);
      expect(fake.exchanges.length).toBe(before + 1);
      // A replay of that callback, even with its cookie copied, on either instance: GitHub took the code once.
      for (const server of instances) {
        const replay = await finish(server, query, cookie);
        expect(replay.token).toBe(502);
        expect(replay.message).not.toContain(TOKEN);
      }
      expect(fake.exchanges.slice(before).map((exchange) => exchange.answer)).toEqual([
        "token",
        "bad_verification_code",
        "bad_verification_code",
      ]);
    }
  });

  it("writes no token, code or secret in either instance's log", async () => {
    for (const server of instances) {
      await server.logCaughtUp();
      const log = server.output();
      expect(log).toContain("GitHub sign-in: a volunteer signed in");
      expect(log).not.toContain(TOKEN);
      expect(log).not.toContain(OAUTH_APP.clientSecret);
      expect(log).not.toContain("code=");
    }
  });
});
