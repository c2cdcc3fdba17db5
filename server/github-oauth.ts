// "Sign in with GitHub" for the content editor (/admin), when GITHUB_OAUTH_CLIENT_ID and _SECRET are
// set: the two addresses Sveltia CMS's GitHub backend opens in its popup (the authenticator protocol
// of Decap/Netlify CMS). The start sends the popup to GitHub's consent screen with a random `state`,
// kept in memory (each used once) and bound to this browser by a short-lived cookie; the callback
// checks both before it trades GitHub's code for a token (with the app's secret, server to server),
// then hands the token to the editor window by postMessage, to the site's own origin only.
// Docs: docs/editing-content.md (what a volunteer sees), README "The content editor" (the OAuth app).
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { Logger } from "~/logger.server";
import { ADMIN_AUTH_CALLBACK_PATH, ADMIN_AUTH_PATH, ADMIN_PATH } from "~/site-routes";
import { adminPage, escapeHtml } from "./admin-page";
import { pathOfTarget, sendError } from "./errors";
import type { Client } from "./client";
import { cspHeader, inlineScriptHashes } from "./security";
import type { Step } from "./step";

export type GitHubOAuthOptions = {
  clientId: string;
  clientSecret: string;
  /** The GitHub scope asked for, whatever the editor asks: `public_repo`, or `repo` for a private repository. */
  scope: "public_repo" | "repo";
  /** https://github.com (the tests' fake GitHub otherwise). */
  githubUrl: string;
  /** Whether the request reached us over HTTPS, and the site's origin as it did (server/client.ts). */
  client: Pick<Client, "secure" | "origin">;
  logger: Logger;
  /** How long GitHub has to answer the code's exchange. */
  exchangeTimeoutMs?: number;
  /** The clock states age by, in milliseconds (a test's own). */
  now?: () => number;
};

/** The provider name in the editor's messages. */
const PROVIDER = "github";
/** How long a sign-in may take on GitHub's screen: the state's and its cookie's life. */
const STATE_TTL_SECONDS = 600;
/** States waiting for their callback; a flood beyond this forgets the oldest (the rate limit comes first). */
const MAX_PENDING = 10_000;

/** The cookie that binds a sign-in to the browser that started it; `__Host-` (no Domain, Path=/, Secure) over HTTPS. */
const stateCookieName = (https: boolean) => (https ? "__Host-admin-sign-in" : "admin-sign-in");

/**
 * The callback page's one script: it posts "authorizing:github" to the editor window (its opener),
 * and on the editor's echo, from our own origin, the page's message (the token, or an error). Every
 * post names our own origin as its target, so no other site's window can receive it. It also drops
 * the code and state from the address bar and history.
 */
const CALLBACK_SCRIPT =
  // A block: its names stay out of the window's global scope (where `opener` is the window's own).
  '{const message=document.getElementById("sign-in").dataset.message,origin=location.origin,editor=window.opener;' +
  'history.replaceState(null,"",location.pathname);' +
  'if(editor){addEventListener("message",e=>{if(e.origin===origin&&e.source===editor&&e.data==="authorizing:github")editor.postMessage(message,origin)});' +
  'editor.postMessage("authorizing:github",origin)}}';

/** The callback page's policy: nothing but its script (by hash) and our favicon; framed by no one. */
const CALLBACK_CSP = cspHeader([
  ["default-src", ["'none'"]],
  ["script-src", inlineScriptHashes(`<script>${CALLBACK_SCRIPT}</script>`)],
  ["img-src", ["'self'"]],
  ["base-uri", ["'none'"]],
  ["form-action", ["'none'"]],
  ["frame-ancestors", ["'none'"]],
]);

/** A callback's answer: its status, the page's heading and paragraph (HTML), and the message for the editor window. */
type Outcome = { status: number; title: string; text: string; message: string };

const BACK = `<a href="${ADMIN_PATH}">Back to the content editor</a>`;
const AGAIN = `Go back to the content editor and click <b>Sign In with GitHub</b> again.`;

/** The refusals and failures, in plain words: what happened and what to do. */
const REFUSED = {
  noState: [400, "This sign-in came back without the check that it is yours. Nothing was signed in."],
  noCookie: [400, "This sign-in was not started in this browser, or was started more than 10 minutes ago. Nothing was signed in."],
  wrongState: [400, "This sign-in does not match the one this browser started. Nothing was signed in."],
  usedState: [400, "This sign-in link has already been used, or has expired. Nothing was signed in."],
  noCode: [400, "GitHub sent this sign-in back without its code. Nothing was signed in."],
  denied: [403, "You did not allow the content editor to use your GitHub account, so you are not signed in."],
  unreachable: [502, "GitHub could not be reached to finish signing you in. Nothing was signed in; please try again in a few minutes."],
  githubFailed: [
    502,
    "GitHub did not answer properly when finishing your sign-in. Nothing was signed in; please try again in a few minutes.",
  ],
} as const satisfies Record<string, [number, string]>;

function refusal(reason: keyof typeof REFUSED): Outcome {
  const [status, text] = REFUSED[reason];
  return failure(status, text);
}

function failure(status: number, text: string): Outcome {
  return {
    status,
    title: "Not signed in",
    text: `${escapeHtml(text)} ${AGAIN}`,
    message: `authorization:${PROVIDER}:error:${JSON.stringify({ provider: PROVIDER, error: text })}`,
  };
}

function signedIn(token: string): Outcome {
  return {
    status: 200,
    title: "Signed in",
    text: "You are signed in with GitHub. This window closes by itself; if it does not, close it and go back to the content editor.",
    message: `authorization:${PROVIDER}:success:${JSON.stringify({ token, provider: PROVIDER })}`,
  };
}

function callbackPage({ title, text, message }: Outcome): string {
  return adminPage(
    `${title} · Content editor`,
    "",
    `<main id="sign-in" data-message="${escapeHtml(message)}">
<h1>${escapeHtml(title)}</h1>
<p>${text}</p>
<p>${BACK}</p>
</main>
<script>${CALLBACK_SCRIPT}</script>`,
  );
}

/** GitHub's answer to the code's exchange: a token, or an error (both with status 200). */
const tokenAnswer = z.union([
  z.object({ access_token: z.string().min(1), scope: z.string().optional() }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** A front-chain step answering GET for the two sign-in addresses. */
export function githubSignIn(options: GitHubOAuthOptions): Step {
  const { clientId, clientSecret, scope, githubUrl, client, logger, exchangeTimeoutMs = 10_000, now } = options;
  const pending = new LRUCache<string, true>({ max: MAX_PENDING, ttl: STATE_TTL_SECONDS * 1000, ...(now ? { perf: { now } } : {}) });
  const github = githubUrl.replace(/\/+$/, "");

  const cookie = (https: boolean, value: string, maxAge: number) =>
    serializeCookie(stateCookieName(https), value, { httpOnly: true, secure: https, sameSite: "lax", path: "/", maxAge });

  function start(req: IncomingMessage, res: ServerResponse): void {
    const https = client.secure(req);
    const state = randomBytes(32).toString("base64url");
    pending.set(state, true);
    // The editor's own query (provider, site_id, scope) is not read: the scope is ours to fix.
    const authorize = new URL(`${github}/login/oauth/authorize`);
    authorize.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: `${client.origin(req)}${ADMIN_AUTH_CALLBACK_PATH}`,
      scope,
      state,
    }).toString();
    res.writeHead(302, {
      Location: authorize.href,
      "Set-Cookie": cookie(https, state, STATE_TTL_SECONDS),
      "Cache-Control": "no-store",
      "Content-Length": 0,
    });
    res.end();
  }

  /** Trades the code for a token, server to server; an outcome for the page either way. */
  async function exchange(code: string, redirectUri: string, log: Logger): Promise<Outcome> {
    let answer: z.infer<typeof tokenAnswer>;
    try {
      const response = await fetch(`${github}/login/oauth/access_token`, {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, code, redirect_uri: redirectUri }),
        redirect: "error",
        signal: AbortSignal.timeout(exchangeTimeoutMs),
      });
      if (!response.ok) {
        log.warn(
          { signIn: "github-status", status: response.status },
          "GitHub sign-in: GitHub answered the code's exchange with an error status",
        );
        await response.body?.cancel();
        return refusal("githubFailed");
      }
      // Not JSON (a proxy's HTML page) is an answer GitHub does not give, like JSON of another shape.
      const parsed = tokenAnswer.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success) {
        log.warn({ signIn: "github-answer" }, "GitHub sign-in: GitHub's answer to the code's exchange was not one it gives");
        return refusal("githubFailed");
      }
      answer = parsed.data;
    } catch (error) {
      // Only the error's kind: a fetch error names nothing secret, but a line needs no more.
      const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
      log.warn(
        {
          signIn: "github-unreachable",
          error: error instanceof Error ? error.name : typeof error,
          code: typeof cause?.code === "string" ? cause.code : undefined,
        },
        "GitHub sign-in: GitHub could not be reached to exchange the code",
      );
      return refusal("unreachable");
    }
    if ("error" in answer) {
      const known = /^[a-z_]{1,64}$/.test(answer.error) ? answer.error : "unknown";
      log.warn({ signIn: "github-refused", githubError: known }, "GitHub sign-in: GitHub refused the code");
      return failure(502, `GitHub did not accept this sign-in (${known}). Nothing was signed in.`);
    }
    log.info({ signIn: "signed-in", scope: answer.scope }, "GitHub sign-in: a volunteer signed in");
    return signedIn(answer.access_token);
  }

  async function callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const https = client.secure(req);
    const log = logger.child({ reqId: req.id });
    const query = new URL(req.url ?? "/", "http://site").searchParams;
    const state = query.get("state");
    const cookieState = parseCookies(req.headers.cookie ?? "")[stateCookieName(https)];
    let outcome: Outcome;
    if (!state) outcome = refusal("noState");
    else if (!cookieState) outcome = refusal("noCookie");
    else if (!sameText(state, cookieState)) outcome = refusal("wrongState");
    // Each state is good for one callback, within its life: a replay of this address finds it gone.
    // (`delete` alone would also take a state past its life that the cache has not yet dropped.)
    else if (!pending.has(state) || !pending.delete(state)) outcome = refusal("usedState");
    else if (query.get("error") === "access_denied") outcome = refusal("denied");
    else if (query.has("error")) {
      const error = query.get("error") ?? "";
      outcome = failure(
        502,
        `GitHub did not start this sign-in (${/^[a-z_]{1,64}$/.test(error) ? error : "unknown"}). Nothing was signed in.`,
      );
    } else {
      const code = query.get("code");
      outcome = code ? await exchange(code, `${client.origin(req)}${ADMIN_AUTH_CALLBACK_PATH}`, log) : refusal("noCode");
    }
    if (outcome.status >= 400 && outcome.status < 500)
      log.info({ signIn: "refused", status: outcome.status }, "GitHub sign-in: refused a callback");
    const body = Buffer.from(callbackPage(outcome));
    res.writeHead(outcome.status, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": body.length,
      "Content-Security-Policy": CALLBACK_CSP,
      // It may hold a token: kept by no one, and its address (with the code) sent to no one.
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex, nofollow",
      // The sign-in is over, whichever way: the cookie goes.
      "Set-Cookie": cookie(https, "", 0),
    });
    res.end(body);
  }

  return (req, res, next) => {
    const path = pathOfTarget(req.url);
    if (path !== ADMIN_AUTH_PATH && path !== ADMIN_AUTH_CALLBACK_PATH) return next();
    // A HEAD would start a sign-in or spend a code without anyone to see the answer.
    if (req.method !== "GET") return sendError(req, res, 405, "Method not allowed", { Allow: "GET" });
    if (path === ADMIN_AUTH_PATH) return start(req, res);
    callback(req, res).catch(next);
  };
}
