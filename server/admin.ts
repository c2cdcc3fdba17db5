// The content editor at /admin (Sveltia CMS; docs/editing-content.md): its page and its
// configuration (generated from the content schema, app/content/editor-config.server.ts), made once and
// kept as stored answers with a policy of their own (server/security.ts, adminCspDirectives). The
// editor's files are the client build's (/assets/sveltia-cms-<version>/, from
// app/content/editor-plugin.server.ts). /admin is for the community's editors: noindex, disallowed
// in robots.txt, not in the sitemap.
import type { IncomingMessage } from "node:http";
import { entry, preview } from "virtual:content-editor";
import { editorConfig } from "~/content/editor-config.server";
import { ADMIN_CONFIG_PATH, ADMIN_PATH } from "~/site-routes";
import { ADMIN_CACHE_CONTROL, REDIRECT_CACHE_CONTROL } from "./cache-policy";
import { adminPage } from "./admin-page";
import { pathOfTarget } from "./errors";
import { ADMIN_PERMISSIONS_POLICY, adminCspFor } from "./security";
import type { Step } from "./step";
import { sendStored, storeAnswer, type StoredAnswer } from "./stored-answer";

export type AdminOptions = {
  /** CONTENT_REPOSITORY ("owner/name"); without it the page says how to set the editor up. */
  repository?: string;
  branch: string;
  siteUrl?: string;
  siteName: string;
  secure: (req: IncomingMessage) => boolean;
  /** "Sign in with GitHub" through this server (server/github-oauth.ts): on only with a repository to edit. */
  signIn: boolean;
  /** CONTENT_DRAFTS: a save is a draft pull request (app/content/editor-config.server.ts). */
  drafts?: boolean;
};

/** Both are small and change only with a deploy: checked again on every visit, answered 304. */
const headers = (signIn: boolean) => ({
  "X-Robots-Tag": "noindex, nofollow",
  "Permissions-Policy": ADMIN_PERMISSIONS_POLICY,
  // The editor holds a GitHub token: no other site's window keeps a handle on it. Its sign-in popup
  // goes through GitHub's pages and must still reach it (only our own origin can post to it).
  "Cross-Origin-Opener-Policy": signIn ? "same-origin-allow-popups" : "same-origin",
});

/**
 * The editor: its configuration's address, and its module, loaded and started by one inline script
 * (allowed by its hash). With "Sign in with GitHub", the script gives the editor the origin of its
 * popup: this page's own, whichever address the site was opened at, so that the popup, its cookie
 * and its message stay on the origin the editor runs on. Where the build made the preview pane
 * (app/preview/), the script loads it beside the editor and registers its templates before the start,
 * and an import map (allowed by its hash too) gives the editor the Immutable.js they need, which its
 * npm build imports by the package's bare name.
 */
export function editorPage(siteName: string, signIn = false): string {
  const init = signIn ? "{config:{backend:{base_url:location.origin}}}" : "";
  const start = preview
    ? `import CMS from ${JSON.stringify(entry)};import {registerPreviews} from ${JSON.stringify(preview.script)};registerPreviews(CMS);CMS.init(${init});`
    : `import CMS from ${JSON.stringify(entry)};CMS.init(${init});`;
  const importMap = preview ? `<script type="importmap">${JSON.stringify({ imports: { immutable: preview.immutable } })}</script>\n` : "";
  return adminPage(
    `Content editor · ${siteName}`,
    `<link rel="cms-config-url" type="application/json" href="${ADMIN_CONFIG_PATH}">
${importMap}<script type="module">${start}</script>
`,
    `<noscript>The content editor needs JavaScript. Without it, edit the YAML files in content/ on GitHub (docs/editing-content.md).</noscript>`,
  );
}

/** Without CONTENT_REPOSITORY the editor would not know where to save: say so, and how to fix it. */
export function notSetUpPage(siteName: string): string {
  return adminPage(
    `Content editor · ${siteName}`,
    "",
    `<main>
<h1>The content editor is not set up yet</h1>
<p>It saves to the site's GitHub repository, and this server has not been told which one. Whoever deploys the site sets
<code>CONTENT_REPOSITORY</code> to the repository (<code>owner/name</code>, e.g. <code>our-org/founders-site</code>) and, if
content is not edited on <code>main</code>, <code>CONTENT_BRANCH</code>, then restarts the server.</p>
<p>Until then, edit the YAML files in <code>content/</code> on GitHub: docs/editing-content.md says how.</p>
</main>`,
  );
}

async function makeAnswers({ repository, branch, siteUrl, siteName, signIn, drafts }: AdminOptions): Promise<Map<string, StoredAnswer>> {
  const HEADERS = headers(signIn);
  const html = (body: string, status = 200) =>
    storeAnswer(new Response(body, { status, headers: { ...HEADERS, "Content-Type": "text/html; charset=utf-8" } }), {
      csp: adminCspFor,
      cacheControl: ADMIN_CACHE_CONTROL,
    });
  const json = (body: unknown, status = 200) =>
    storeAnswer(
      new Response(JSON.stringify(body), { status, headers: { ...HEADERS, "Content-Type": "application/json; charset=utf-8" } }),
      { csp: adminCspFor, cacheControl: ADMIN_CACHE_CONTROL },
    );
  const answers = repository
    ? [html(editorPage(siteName, signIn)), json(editorConfig({ repository, branch, siteUrl, siteName, signIn, drafts }))]
    : [html(notSetUpPage(siteName)), json({ error: "The content editor is not set up: CONTENT_REPOSITORY is not set." }, 404)];
  const [editor, config] = await Promise.all(answers);
  return new Map([
    [ADMIN_PATH, editor!],
    [ADMIN_CONFIG_PATH, config!],
  ]);
}

/** A front-chain step answering GET and HEAD for /admin and its configuration (and /admin/ with a redirect). */
export function adminEditor(options: AdminOptions): Step {
  let answers: Promise<Map<string, StoredAnswer>> | undefined;
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const path = pathOfTarget(req.url);
    if (path === `${ADMIN_PATH}/`) {
      res.writeHead(301, { Location: ADMIN_PATH, "Cache-Control": REDIRECT_CACHE_CONTROL, "Content-Length": 0 });
      return res.end();
    }
    if (path !== ADMIN_PATH && path !== ADMIN_CONFIG_PATH) return next();
    answers ??= makeAnswers(options);
    answers.then(
      (stored) => sendStored(req, res, stored.get(path)!, options.secure(req)),
      (error: unknown) => {
        answers = undefined;
        next(error);
      },
    );
  };
}
