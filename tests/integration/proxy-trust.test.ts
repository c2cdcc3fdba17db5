// X-Forwarded-For, -Proto and -Host are each believed only from a proxy TRUST_PROXY names, behind a
// real nginx configured with the block docs/deploying.md gives, read from there (it appends the
// client's address to X-Forwarded-For and sets the other two itself), and straight from a peer it
// does not name. A client that forges all
// three gets no more than the page limit (5) out of 300 requests either way, and its forged host
// never reaches the sign-in's callback address; with SITE_URL set, that address is SITE_URL's alone.
// Skipped, saying so, only where nginx is not installed (Debian's nginx-light; .ci/run installs it).
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAUTH_APP } from "../fakes/github";
import { freePort } from "../support/http";
import { nginxBinary, startNginx, type RunningNginx } from "../support/nginx";
import { NO_SOURCE } from "../support/environments";
import { startExpectingFailure, startServer, type RunningServer } from "../support/start-server";

const NGINX = nginxBinary();
const PAGE_LIMIT = 5;
const REQUESTS = 300;
const SITE_URL = "https://founders.example.org";
const FORGED_HOST = "evil.example";
/** Where the test's clients connect from: other loopback addresses than nginx's own (127.0.0.1). */
const THROUGH_NGINX_FROM = "127.0.0.2";
const STRAIGHT_FROM = "127.0.0.3";

if (!NGINX) console.warn("proxy-trust.test.ts: SKIPPED: nginx is not installed (apt-get install nginx-light, or set NGINX_PATH)");

type Answer = { status: number; headers: Record<string, string | string[] | undefined> };

/** One GET from `localAddress`, with the headers given. */
function get(base: string, target: string, localAddress: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${target}`, { localAddress, headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A client that forges all three headers, a different address each time. */
const forged = (i: number) => ({
  "X-Forwarded-For": `198.51.100.${i % 250}`,
  "X-Forwarded-Host": FORGED_HOST,
  "X-Forwarded-Proto": "https",
});

/** The callback address the sign-in's start sends GitHub. */
async function callbackOf(base: string, localAddress: string, headers: Record<string, string>): Promise<string> {
  const answer = await get(base, "/admin/auth", localAddress, headers);
  expect(answer.status).toBe(302);
  return new URL(String(answer.headers.location)).searchParams.get("redirect_uri") ?? "";
}

describe("TRUST_PROXY=true", () => {
  it("stops the server at start, saying to set the proxies' addresses or their number instead", async () => {
    const { code, stderr } = await startExpectingFailure({ ...NO_SOURCE, TRUST_PROXY: "true" });
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/TRUST_PROXY: cannot be true .*set the proxies' addresses \(e\.g\. loopback.*how many there are \(e\.g\. 1\)/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe.skipIf(!NGINX)("behind nginx, TRUST_PROXY set to its address, with forged X-Forwarded-For, -Host and -Proto", () => {
  const servers: RunningServer[] = [];
  const proxies: RunningNginx[] = [];
  /** [site, nginx in front of it]: without SITE_URL, and with it. */
  let plain: [RunningServer, RunningNginx];
  let withSiteUrl: [RunningServer, RunningNginx];

  beforeAll(async () => {
    const env = {
      ...NO_SOURCE,
      // docs/deploying.md: TRUST_PROXY set to nginx's address as the server sees it.
      TRUST_PROXY: "127.0.0.1",
      PAGE_RATE_LIMIT_PER_MINUTE: String(PAGE_LIMIT),
      CONTENT_REPOSITORY: "founders/site",
      GITHUB_OAUTH_CLIENT_ID: OAUTH_APP.clientId,
      GITHUB_OAUTH_CLIENT_SECRET: OAUTH_APP.clientSecret,
      // The start never calls GitHub: nothing needs to listen there.
      GITHUB_OAUTH_URL: `http://127.0.0.1:${await freePort()}`,
    };
    const started = [await startServer({ ...env, SITE_URL: "" }), await startServer({ ...env, SITE_URL })] as const;
    servers.push(...started);
    for (const server of started) proxies.push(await startNginx(NGINX as string, server.url));
    plain = [started[0], proxies[0] as RunningNginx];
    withSiteUrl = [started[1], proxies[1] as RunningNginx];
  });
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    await Promise.all(servers.map((server) => server.stop()));
  });

  it.each([
    ["through nginx", THROUGH_NGINX_FROM, () => plain[1].url],
    ["straight to the server, from a peer TRUST_PROXY does not name", STRAIGHT_FROM, () => plain[0].url],
  ])(`answers at most ${PAGE_LIMIT} of ${REQUESTS} page requests %s, the rest 429`, async (_how, from, base) => {
    const statuses: number[] = [];
    for (let i = 0; i < REQUESTS; i++) statuses.push((await get(base(), "/about", from, forged(i))).status);
    const answered = statuses.filter((status) => status === 200).length;
    console.log(`${_how}: ${answered} of ${REQUESTS} answered, ${statuses.filter((status) => status === 429).length} refused (429)`);
    expect(answered).toBeLessThanOrEqual(PAGE_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(REQUESTS - answered);
  });

  it("never puts the forged host in the callback address, nor takes the forged https as the scheme", async () => {
    const [server, nginx] = plain;
    // Through nginx: nginx's own Host (the address the client asked for), over http as nginx received it.
    expect(await callbackOf(nginx.url, THROUGH_NGINX_FROM, forged(1))).toBe(`${nginx.url}/admin/auth/callback`);
    // Straight from an untrusted peer: its headers are not believed at all.
    expect(await callbackOf(server.url, STRAIGHT_FROM, forged(2))).toBe(`${server.url}/admin/auth/callback`);
    // Nor HSTS, nor a Secure __Host- cookie, for a forged https.
    const answer = await get(server.url, "/admin/auth", STRAIGHT_FROM, forged(3));
    expect(answer.headers["strict-transport-security"]).toBeUndefined();
    expect(String(answer.headers["set-cookie"])).toMatch(/^admin-sign-in=/);
  });

  it("with SITE_URL set, gives SITE_URL's callback address whatever the request says, its Host included", async () => {
    const [server, nginx] = withSiteUrl;
    for (const [base, from] of [
      [nginx.url, THROUGH_NGINX_FROM],
      [server.url, STRAIGHT_FROM],
    ] as const) {
      expect(await callbackOf(base, from, forged(4))).toBe(`${SITE_URL}/admin/auth/callback`);
      expect(await callbackOf(base, from, { ...forged(5), Host: FORGED_HOST })).toBe(`${SITE_URL}/admin/auth/callback`);
    }
  });

  it("leaves nothing in nginx's error log", () => {
    for (const proxy of proxies) expect(proxy.errors()).toBe("");
  });
});
