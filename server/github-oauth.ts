// "Sign in with GitHub" for the content editor (/admin), when GITHUB_OAUTH_CLIENT_ID and _SECRET are
// set: the addresses Sveltia CMS's GitHub backend opens in its popup (the authenticator protocol of
// Decap/Netlify CMS). Nothing is kept in memory, so any instance can finish a sign-in another began:
// - the start sends the popup to GitHub's consent screen with a `state` signed with its expiry
//   (server/sign-in-state.ts) and puts the same state in a short-lived HttpOnly cookie;
// - the callback checks that the state GitHub sent back is the cookie's, and one an instance gave,
//   still within its life. Its page holds no token: its script, once the editor's window (its
//   opener) has answered, asks the token address, which checks the same again, trades GitHub's code
//   for a token (with the app's secret, server to server) and clears the cookie. The page then hands
//   the token to the editor window by postMessage, to the site's own origin only. Opened without
//   its editor window, the page says what to do and asks for nothing, so no token is ever made.
// What stops a replay: docs/decisions/content-editor.md.
// Docs: docs/editing-content.md (what a volunteer sees), docs/deploying.md#sign-in-with-github (the OAuth app).
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import { z } from "zod";
import type { Logger } from "~/logger.server";
import { ADMIN_AUTH_CALLBACK_PATH, ADMIN_AUTH_PATH, ADMIN_AUTH_TOKEN_PATH, ADMIN_PATH } from "~/site-routes";
import { adminPage, escapeHtml } from "./admin-page";
import { pathOfTarget, sendError } from "./errors";
import type { Client } from "./client";
import { cspHeader, inlineScriptHashes } from "./security";
import { callbackScript } from "./sign-in-callback-script";
import { signInStates, STATE_TTL_SECONDS } from "./sign-in-state";
import type { Step } from "./step";

export type GitHubOAuthOptions = {
  clientId: string;
  /** The app's secret: sent to GitHub with each code, and the root of the key that signs the states. */
  clientSecret: string;
  /** The GitHub scope asked for, whatever the editor asks: `public_repo`, or `repo` for a private repository. */
  scope: "public_repo" | "repo";
  /** https://github.com (the tests' fake GitHub otherwise). */
  githubUrl: string;
  /** SITE_URL: when set, the one origin of the callback address GitHub is given (no request header chooses it). */
  siteUrl?: string;
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

/** The header the callback page's script sends to the token address: no navigation or other site's page can send it. */
export const TOKEN_REQUEST_HEADER = "x-sign-in";

/** The three addresses, which answer GET alone (OPTIONS included: a 405, never a CORS preflight's approval). */
const SIGN_IN_PATHS: ReadonlySet<string> = new Set([ADMIN_AUTH_PATH, ADMIN_AUTH_CALLBACK_PATH, ADMIN_AUTH_TOKEN_PATH]);
export const isSignInPath = (path: string) => SIGN_IN_PATHS.has(path);

/** The cookie that binds a sign-in to the browser that started it; `__Host-` (no Domain, Path=/, Secure) over HTTPS. */
const stateCookieName = (https: boolean) => (https ? "__Host-admin-sign-in" : "admin-sign-in");

/** A callback's (or the token address's) answer: its status, the page's heading and text, and the message for the editor window. */
type Outcome = { status: number; title: string; text: string; again: boolean; message: string };

const BACK = `<a href="${ADMIN_PATH}">Back to the content editor</a>`;
const AGAIN_HTML = `Go back to the content editor and click <b>Sign In with GitHub</b> again.`;
const AGAIN_TEXT = "Go back to the content editor and click Sign In with GitHub again.";

/** A sign-in's life (its state's and its cookie's), in words. */
const LIFE = `${STATE_TTL_SECONDS / 60} minutes`;

/** The refusals and failures, in plain words: what happened and what to do. */
const REFUSED = {
  noState: [400, "This sign-in came back without the check that it is yours. Nothing was signed in."],
  noCookie: [400, `This sign-in was not started in this browser, or was started more than ${LIFE} ago. Nothing was signed in.`],
  wrongState: [400, "This sign-in does not match the one this browser started. Nothing was signed in."],
  forged: [400, "This sign-in was not started by this site. Nothing was signed in."],
  expired: [400, `This sign-in was started more than ${LIFE} ago and has expired. Nothing was signed in.`],
  noCode: [400, "GitHub sent this sign-in back without its code. Nothing was signed in."],
  denied: [403, "You did not allow the content editor to use your GitHub account, so you are not signed in."],
  unreachable: [502, "GitHub could not be reached to finish signing you in. Nothing was signed in; please try again in a few minutes."],
  githubFailed: [
    502,
    "GitHub did not answer properly when finishing your sign-in. Nothing was signed in; please try again in a few minutes.",
  ],
} as const satisfies Record<string, [number, string]>;

/** What the page says when the script cannot get an answer from the token address at all. */
const UNANSWERED = "The sign-in could not be finished. Nothing was signed in.";

const errorMessage = (text: string) => `authorization:${PROVIDER}:error:${JSON.stringify({ provider: PROVIDER, error: text })}`;

function refusal(reason: keyof typeof REFUSED): Outcome {
  const [status, text] = REFUSED[reason];
  return failure(status, text);
}

function failure(status: number, text: string): Outcome {
  return { status, title: "Not signed in", text, again: true, message: errorMessage(text) };
}

function signedIn(token: string): Outcome {
  return {
    status: 200,
    title: "Signed in",
    text: "You are signed in with GitHub. This window closes by itself; if it does not, close it and go back to the content editor.",
    again: false,
    message: `authorization:${PROVIDER}:success:${JSON.stringify({ token, provider: PROVIDER })}`,
  };
}

/** The callback page when the sign-in can be finished: what it says until its script finds the editor's window. */
const ALONE = {
  title: "Not signed in",
  text:
    "This page is not in the content editor's sign-in window (it was opened in a tab of its own, or the editor was closed), " +
    "so it has nothing to hand over and nothing was signed in.",
};
const WAITING = { title: "Signing in…", text: "Finishing your sign-in with GitHub. This window closes by itself." };

/** The callback page's one script (server/sign-in-callback-script.ts), with this file's words. */
const CALLBACK_SCRIPT = callbackScript({
  tokenHeader: { name: TOKEN_REQUEST_HEADER, value: PROVIDER },
  handshake: `authorizing:${PROVIDER}`,
  waiting: WAITING,
  unanswered: { title: "Not signed in", text: `${UNANSWERED} ${AGAIN_TEXT}`, message: errorMessage(UNANSWERED) },
});

/** The callback page's policy: nothing but its script (by hash), its call to the token address, and our favicon; framed by no one. */
const CALLBACK_CSP = cspHeader([
  ["default-src", ["'none'"]],
  ["script-src", inlineScriptHashes(`<script>${CALLBACK_SCRIPT}</script>`)],
  ["connect-src", ["'self'"]],
  ["img-src", ["'self'"]],
  ["base-uri", ["'none'"]],
  ["form-action", ["'none'"]],
  ["frame-ancestors", ["'none'"]],
]);

/** A refusal's page (its message for the editor: an error, never a token), or the page of a sign-in its script can finish. */
function callbackPage(outcome: Outcome | "ready"): string {
  const [title, text, data] =
    outcome === "ready"
      ? [ALONE.title, `${escapeHtml(ALONE.text)} ${AGAIN_HTML}`, `data-token="${ADMIN_AUTH_TOKEN_PATH}"`]
      : [
          outcome.title,
          `${escapeHtml(outcome.text)}${outcome.again ? ` ${AGAIN_HTML}` : ""}`,
          `data-message="${escapeHtml(outcome.message)}"`,
        ];
  return adminPage(
    `${title} · Content editor`,
    "",
    `<main id="sign-in" ${data}>
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

/** GitHub's error names are short snake_case words; anything else is shown as "unknown". */
const errorName = (error: string) => (/^[a-z_]{1,64}$/.test(error) ? error : "unknown");

/** A front-chain step answering GET for the three sign-in addresses. */
export function githubSignIn(options: GitHubOAuthOptions): Step {
  const { clientId, clientSecret, scope, githubUrl, siteUrl, client, logger, exchangeTimeoutMs = 10_000, now = Date.now } = options;
  const github = githubUrl.replace(/\/+$/, "");
  const states = signInStates(clientSecret);
  const siteOrigin = siteUrl ? new URL(siteUrl).origin : undefined;

  /** The address GitHub sends the volunteer back to: SITE_URL's when set, else as the request reached us. */
  const callbackAddress = (req: IncomingMessage) => `${siteOrigin ?? client.origin(req)}${ADMIN_AUTH_CALLBACK_PATH}`;
  /** Whether the browser sees this site over HTTPS (the cookie is then Secure and __Host-). */
  const httpsFor = (req: IncomingMessage) => (siteOrigin ? siteOrigin.startsWith("https:") : client.secure(req));

  const cookie = (https: boolean, value: string, maxAge: number) =>
    serializeCookie(stateCookieName(https), value, { httpOnly: true, secure: https, sameSite: "lax", path: "/", maxAge });

  function start(req: IncomingMessage, res: ServerResponse): void {
    const state = states.issue(now());
    // The editor's own query (provider, site_id, scope) is not read: the scope is ours to fix.
    const authorize = new URL(`${github}/login/oauth/authorize`);
    authorize.search = new URLSearchParams({ client_id: clientId, redirect_uri: callbackAddress(req), scope, state }).toString();
    res.writeHead(302, {
      Location: authorize.href,
      "Set-Cookie": cookie(httpsFor(req), state, STATE_TTL_SECONDS),
      "Cache-Control": "no-store",
      "Content-Length": 0,
    });
    res.end();
  }

  /**
   * The checks that need no GitHub: the state came back, is this browser's cookie's, and is one an
   * instance gave and still within its life. The refusal, or the query to go on with.
   */
  function checkState(req: IncomingMessage): Outcome | URLSearchParams {
    const query = new URL(req.url ?? "/", "http://site").searchParams;
    const state = query.get("state");
    const cookieState = parseCookies(req.headers.cookie ?? "")[stateCookieName(httpsFor(req))];
    if (!state) return refusal("noState");
    if (!cookieState) return refusal("noCookie");
    if (state !== cookieState) return refusal("wrongState");
    const checked = states.check(state, now());
    if (checked === "expired") return refusal("expired");
    if (checked !== "good") return refusal("forged");
    return query;
  }

  /** Trades the code for a token, server to server; an outcome for the page either way. */
  async function exchange(code: string, redirectUri: string, log: Logger): Promise<Outcome> {
    let answer: z.infer<typeof tokenAnswer>;
    try {
      const response = await fetch(`${github}/login/oauth/access_token`, {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, code, redirect_uri: redirectUri }),
        // A redirect would carry the secret on to wherever it points.
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
      const known = errorName(answer.error);
      log.warn({ signIn: "github-refused", githubError: known }, "GitHub sign-in: GitHub refused the code");
      return failure(502, `GitHub did not accept this sign-in (${known}). Nothing was signed in.`);
    }
    log.info({ signIn: "signed-in", scope: answer.scope }, "GitHub sign-in: a volunteer signed in");
    return signedIn(answer.access_token);
  }

  const noStore = {
    // It may hold a token: kept by no one, and its address (with the code) sent to no one.
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
  };

  /** GitHub's redirect back: a refusal's page, or the page whose script finishes the sign-in. */
  function callback(req: IncomingMessage, res: ServerResponse): void {
    const log = logger.child({ reqId: req.id });
    const checked = checkState(req);
    let outcome: Outcome | "ready";
    if (!(checked instanceof URLSearchParams)) outcome = checked;
    else if (checked.get("error") === "access_denied") outcome = refusal("denied");
    else if (checked.has("error")) {
      const error = errorName(checked.get("error") ?? "");
      // The operator's to fix: the OAuth app's registered callback is not the address we sent.
      if (error === "redirect_uri_mismatch")
        log.warn(
          { signIn: "redirect-uri-mismatch", callback: callbackAddress(req) },
          "GitHub sign-in: GitHub refused the callback address: the OAuth app's callback URL must be this one (set SITE_URL to the site's address)",
        );
      outcome = failure(502, `GitHub did not start this sign-in (${error}). Nothing was signed in.`);
    } else if (!checked.get("code")) outcome = refusal("noCode");
    else outcome = "ready";
    if (outcome !== "ready" && outcome.status < 500)
      log.info({ signIn: "refused", status: outcome.status }, "GitHub sign-in: refused a callback");
    const body = Buffer.from(callbackPage(outcome));
    res.writeHead(outcome === "ready" ? 200 : outcome.status, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": body.length,
      "Content-Security-Policy": CALLBACK_CSP,
      ...noStore,
      // A sign-in that ends here ends its cookie; one the page's script finishes keeps it for the token address.
      ...(outcome === "ready" ? {} : { "Set-Cookie": cookie(httpsFor(req), "", 0) }),
    });
    res.end(body);
  }

  /** The callback page's script's call: the same checks, then the code's exchange; the cookie goes either way. */
  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers[TOKEN_REQUEST_HEADER] !== PROVIDER) return sendError(req, res, 400, "Bad request: not the sign-in page's own call");
    // A browser says where a call comes from (Fetch Metadata): the page's script calls from this origin only. Absent in
    // browsers that predate it, where the header above and the absence of CORS still hold.
    const site = req.headers["sec-fetch-site"];
    if (site !== undefined && site !== "same-origin") return sendError(req, res, 403, "Forbidden: not a call from this site's own page");
    const log = logger.child({ reqId: req.id });
    const checked = checkState(req);
    let outcome: Outcome;
    if (!(checked instanceof URLSearchParams)) outcome = checked;
    else {
      const code = checked.get("code");
      outcome = code ? await exchange(code, callbackAddress(req), log) : refusal("noCode");
    }
    if (outcome.status < 500 && outcome.status >= 400)
      log.info({ signIn: "refused", status: outcome.status }, "GitHub sign-in: refused a callback");
    const body = Buffer.from(
      JSON.stringify({
        title: outcome.title,
        text: outcome.again ? `${outcome.text} ${AGAIN_TEXT}` : outcome.text,
        message: outcome.message,
      }),
    );
    res.writeHead(outcome.status, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": body.length,
      ...noStore,
      "Set-Cookie": cookie(httpsFor(req), "", 0),
    });
    res.end(body);
  }

  return (req, res, next) => {
    const path = pathOfTarget(req.url);
    if (!isSignInPath(path)) return next();
    // A HEAD would start a sign-in or spend a code without anyone to see the answer; an OPTIONS is no preflight
    // this site approves (server/limits.ts leaves these addresses' methods to this step).
    if (req.method !== "GET") return sendError(req, res, 405, "Method not allowed", { Allow: "GET" });
    if (path === ADMIN_AUTH_PATH) return start(req, res);
    if (path === ADMIN_AUTH_CALLBACK_PATH) return callback(req, res);
    token(req, res).catch(next);
  };
}
