// The page's speculation rules (Chromium prerenders, Safari prefetches): a same-origin link to one
// of our pages is loaded ahead when the pointer rests on it or a finger goes down on it ("moderate").
// Only our pages qualify, listed from the route table: never the API, a download (.ics), a share
// image, the content editor or another site. Our pages are stored answers that cost the server
// nothing to send twice, and they run no script before an interaction, so loading one that is not
// visited is cheap and does nothing. The inline script is allowed by its hash like every other
// (server/security.ts). See docs/decisions/instant-navigation.md.
import { pageRoutes, pathOf } from "~/site-routes";

/** URL patterns (resolved against the page's own origin) of every page; a query string is allowed. */
export const speculatedPaths: readonly string[] = pageRoutes.map(pathOf);

/** Links never loaded ahead although their path is a page's: downloads, new tabs, opt-outs, a place in this page. */
export const NOT_SPECULATED_SELECTOR = '[download], [target], [rel~=nofollow], [rel~=external], [href^="#"]';

type Rule = { source: "document"; where: unknown; eagerness: "moderate" };

function rule(): Rule {
  return {
    source: "document",
    where: { and: [{ href_matches: [...speculatedPaths] }, { not: { selector_matches: NOT_SPECULATED_SELECTOR } }] },
    eagerness: "moderate",
  };
}

/** Prerender on intent; prefetch is the fallback where prerendering is unsupported or refused (Safari, DevTools, Save-Data). */
export const speculationRules = { prerender: [rule()], prefetch: [rule()] };

/** The text of the page's `<script type="speculationrules">`. */
export const speculationRulesJson = JSON.stringify(speculationRules);
