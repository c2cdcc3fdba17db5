// What a preview instance of a change (env.previewUrl: Render's IS_PULL_REQUEST, docs/deploying.md)
// changes in the front chain (server/site.ts), besides its pages' banner and own-address links
// (app/config.server.ts): every answer says noindex, and the content editor and its sign-in are off.
// A preview runs a pull request's code with the live service's variables (Render copies them), so an
// editor there would save to the live site's repository from an address no one registered with GitHub.
// The live site's chain has neither step. Both are fixed for the process's life: no per-request bytes.
import type { IncomingMessage } from "node:http";
import { ADMIN_CONFIG_PATH, ADMIN_PATH } from "~/site-routes";
import { adminPage, escapeHtml } from "./admin-page";
import { ADMIN_CACHE_CONTROL } from "./cache-policy";
import { pathOfTarget } from "./errors";
import { adminCspFor } from "./security";
import type { Step } from "./step";
import { sendStored, storeAnswer, type StoredAnswer } from "./stored-answer";

/** On every answer of a preview instance, probes and errors included: no search engine keeps a change not yet published. */
export const noindexEveryAnswer: Step = (_req, res, next) => {
  res.setHeader("X-Robots-Tag", "noindex");
  next();
};

export type AdminOffOptions = {
  siteName: string;
  /** SITE_URL, the live site (a preview inherits it): where the editor is. */
  liveSiteUrl?: string;
  secure: (req: IncomingMessage) => boolean;
};

/** Why the editor is off, in the page's words and the configuration's. */
export const ADMIN_OFF_HEADING = "The content editor is off on this preview";

/** The page every address of the editor answers on a preview instance. */
export function adminOffPage(siteName: string, liveSiteUrl?: string): string {
  const editor = liveSiteUrl ? escapeHtml(new URL(ADMIN_PATH, liveSiteUrl).href) : undefined;
  const where = editor
    ? `Edit the content in the live site's editor, at <a href="${editor}">${editor}</a>.`
    : `Edit the content in the live site's editor, at <code>${ADMIN_PATH}</code> on its address.`;
  return adminPage(
    `Content editor · ${siteName}`,
    "",
    `<main>
<h1>${ADMIN_OFF_HEADING}</h1>
<p>This address is a preview of a change, not the live site: nothing can be edited or saved here.</p>
<p>${where}</p>
</main>`,
  );
}

/** Answers GET and HEAD for /admin and every address under it (its configuration, its sign-in's three) with 404 and why. */
export function adminOff({ siteName, liveSiteUrl, secure }: AdminOffOptions): Step {
  let answers: Promise<{ page: StoredAnswer; config: StoredAnswer }> | undefined;
  const make = async () => {
    // X-Robots-Tag: noindex is noindexEveryAnswer's, as on every answer of a preview.
    const headers = (type: string) => ({ "Content-Type": type });
    const options = { csp: adminCspFor, cacheControl: ADMIN_CACHE_CONTROL };
    const [page, config] = await Promise.all([
      storeAnswer(
        new Response(adminOffPage(siteName, liveSiteUrl), { status: 404, headers: headers("text/html; charset=utf-8") }),
        options,
      ),
      storeAnswer(
        new Response(JSON.stringify({ error: `${ADMIN_OFF_HEADING}: edit the content at the live site.` }), {
          status: 404,
          headers: headers("application/json; charset=utf-8"),
        }),
        options,
      ),
    ]);
    return { page, config };
  };
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const path = pathOfTarget(req.url);
    if (path !== ADMIN_PATH && !path.startsWith(`${ADMIN_PATH}/`)) return next();
    answers ??= make();
    answers.then(
      (stored) => sendStored(req, res, path === ADMIN_CONFIG_PATH ? stored.config : stored.page, secure(req)),
      (error: unknown) => {
        answers = undefined;
        next(error);
      },
    );
  };
}
