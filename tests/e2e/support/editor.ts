// The content editor (/admin) against a fake GitHub: a throw-away checkout of this repository
// that is also the fake's git repository, the production server told to edit it, and the browser's
// requests to GitHub sent to the fake over HTTP.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, type BrowserContext, type Page } from "@playwright/test";
import type { ConsoleIssue } from "../fixtures";
import { initRepository, OAUTH_APP, oauthEnv, startFakeGitHub, type FakeGitHub } from "../../fakes/github";
import { freshCheckout } from "../../support/checkout";
import { startServer, type RunningServer } from "../../support/start-server";

export const REPOSITORY = { owner: "founders-circle", name: "site", branch: "main" } as const;
export const TOKEN = "github_pat_11TESTTOKEN0fakeFAKEfake";
const LOGIN = "volunteer-editor";

export type EditorSetup = { checkout: string; fake: FakeGitHub; server: RunningServer; stop: () => Promise<void> };

/** A throw-away checkout of this repository, committed to a fresh git repository (node_modules linked, not committed). */
export function checkout(): string {
  return freshCheckout("editor-checkout-", (root) => {
    initRepository(root, REPOSITORY.branch);
    writeFileSync(path.join(root, ".git", "info", "exclude"), "node_modules\n");
  });
}

/**
 * The fake GitHub over a fresh checkout, and a production server whose editor commits there; with
 * `oauth`, the server signs in through the fake's OAuth app (GitHub's pages at the fake's address);
 * `env`, the server's other variables (CONTENT_DRAFTS).
 */
export async function startEditorSetup({
  oauth = false,
  env = {},
}: { oauth?: boolean; env?: Record<string, string> } = {}): Promise<EditorSetup> {
  const root = checkout();
  const fake = await startFakeGitHub({ repoDir: root, ...REPOSITORY, token: TOKEN, login: LOGIN, oauthApp: OAUTH_APP });
  const server = await startServer({
    CONTENT_REPOSITORY: `${REPOSITORY.owner}/${REPOSITORY.name}`,
    CONTENT_BRANCH: REPOSITORY.branch,
    ...(oauth ? oauthEnv(fake.url) : {}),
    ...env,
  });
  // The OAuth app's callback, as its owner registers it on GitHub: the address the site really sends.
  fake.registerCallback(`${server.url}/admin/auth/callback`);
  return {
    checkout: root,
    fake,
    server,
    async stop() {
      await server.stop();
      await fake.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

type Recorded = { violations?: string[] };

/**
 * Records every policy violation in `target`'s pages (a page, or every page of a context, popups included). A frame
 * the page can reach (the editor's preview pane, a blob: document of the page's origin) records into the page's own
 * list, so what it saw stays when the editor removes it.
 */
export async function recordViolations(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const own = window as unknown as Recorded;
    own.violations = [];
    const sink = (): string[] => {
      try {
        const top = window.top as unknown as Recorded | null;
        if (top?.violations) return top.violations;
      } catch {
        // Another origin's page: this frame keeps its own.
      }
      return own.violations!;
    };
    document.addEventListener("securitypolicyviolation", (event) => sink().push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
}

/**
 * The policy violations recorded in `page` so far: its own list, which its frames of its origin record into (the
 * editor's preview pane inherits the page's policy), and any other frame's, while it is still there.
 */
export const violationsIn = async (page: Page): Promise<string[]> =>
  (
    await Promise.all(
      page.frames().map((frame) =>
        frame
          .evaluate(() => (window as unknown as Recorded).violations ?? [])
          .catch((error: Error) => {
            // A frame the editor removed meanwhile: what it recorded is in the page's list.
            if (frame !== page.mainFrame() && frame.isDetached()) return [];
            throw error;
          }),
      ),
    )
  ).flat();

/**
 * What Chromium says of every sandboxed iframe allowed both scripts and its own origin, as the editor makes its preview
 * pane's (it needs both to draw into it): a warning, tolerated in the editor's tests.
 */
export const previewSandboxWarning = ({ kind, text }: ConsoleIssue) =>
  kind === "console.warning" &&
  text === "An iframe which has both allow-scripts and allow-same-origin for its sandbox attribute can escape its sandboxing.";

/**
 * Closes the editor's page if open (it keeps asking GitHub in the background: closed before its fake goes), then drops
 * what `tolerated` allows from the test's console issues: once the page is closed no more can come, so none escapes.
 */
export async function closeEditor(
  page: Page,
  consoleIssues: ConsoleIssue[],
  tolerated: (issue: ConsoleIssue) => boolean = previewSandboxWarning,
): Promise<void> {
  if (!page.isClosed()) await page.close();
  consoleIssues.splice(0, consoleIssues.length, ...consoleIssues.filter((issue) => !tolerated(issue)));
}

/**
 * The editor's in-browser HEIC decoder (for a picked HEIC's thumbnail) failing under the /admin policy, as Chromium logs
 * it: where, and what. The site does not ship it (docs/decisions/content-editor.md).
 */
const EDITOR = String.raw`/assets/sveltia-cms-[\d.]+/`;
const HEIC_THUMBNAIL_NOISE: Array<[url: RegExp, text: RegExp]> = [
  [
    new RegExp(`${EDITOR}index\\.js$`),
    /heic-worker-[\w-]+\.js' violates the following Content Security Policy directive: "worker-src 'none'"/,
  ],
  [new RegExp(`${EDITOR}assets/heic_dec-[\\w-]+\\.wasm$`), /^Failed to load resource: the server responded with a status of 404/],
  [
    new RegExp(`${EDITOR}chunks/heic-[\\w-]+\\.js$`),
    /'unsafe-eval' is not an allowed source|falling back to ArrayBuffer|both async and sync fetching of the wasm failed/,
  ],
];
export const heicThumbnailNoise = ({ kind, text, url }: ConsoleIssue) =>
  kind === "console.error" && HEIC_THUMBNAIL_NOISE.some(([where, what]) => where.test(url) && what.test(text));

const HEIC_WORKER = /^worker-src http:\/\/127\.0\.0\.1:\d+\/assets\/sveltia-cms-[\d.]+\/assets\/heic-worker-[\w-]+\.js$/;
/** The policy violations that decoder causes, as recordViolations words them: its worker, and WebAssembly in the page. */
export const HEIC_THUMBNAIL_VIOLATIONS = new Set([expect.stringMatching(HEIC_WORKER), "script-src wasm-eval"]);
export const isHeicThumbnailViolation = (violation: string) => HEIC_WORKER.test(violation) || violation === "script-src wasm-eval";

/**
 * Sends the editor's requests to GitHub (its API, status page and avatars) to the fake, over HTTP:
 * the browser still asks https://api.github.com, which the /admin policy allows.
 */
export async function routeGitHubTo(context: BrowserContext, fake: FakeGitHub): Promise<void> {
  for (const origin of ["https://api.github.com", "https://www.githubstatus.com", "https://avatars.githubusercontent.com"]) {
    await context.route(`${origin}/**`, async (route) => {
      const request = route.request();
      const url = new URL(request.url());
      const response = await route.fetch({ url: `${fake.url}${url.pathname}${url.search}`, maxRedirects: 0 });
      await route.fulfill({ response });
    });
  }
}

/** Opens the editor and signs in with the access token, as the guide tells a volunteer to. */
export async function signIn(page: Page, base: string, token = TOKEN): Promise<void> {
  await page.goto(`${base}/admin`);
  await signInWithToken(page, token);
}

/** Signs in with the access token on the editor's open sign-in screen. */
export async function signInWithToken(page: Page, token = TOKEN): Promise<void> {
  await page.getByRole("button", { name: "Sign In Using Access Token" }).click();
  await page.getByRole("textbox").fill(token);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** The editor's button (its label isolates the service's name with invisible marks: "Sign In with \u2068GitHub\u2069"). */
export const SIGN_IN_WITH_GITHUB = /^Sign In with\W+GitHub\W*$/;

/** Signs in with "Sign in with GitHub" on the editor's open page: the popup shows the (fake) GitHub's consent screen, Authorize, and it closes. */
export async function signInWithGitHub(page: Page): Promise<void> {
  const opened = page.waitForEvent("popup");
  await page.getByRole("button", { name: SIGN_IN_WITH_GITHUB }).click();
  const popup = await opened;
  // The editor closes the popup as soon as it has the token: wait from before the click.
  const closed = popup.waitForEvent("close");
  await popup.getByRole("button", { name: /^Authorize / }).click();
  await closed;
}
