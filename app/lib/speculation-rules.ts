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

/**
 * Links never loaded ahead although their path is a page's: downloads, new tabs, opt-outs, a place
 * in this page, and the events tabs, which switch in place (events/tab-switch.ts): a prerender of
 * the other tab would only compete with the switch for the phone's CPU.
 */
export const NOT_SPECULATED_SELECTOR = '[download], [target], [rel~=nofollow], [rel~=external], [href^="#"], [data-tab]';

type Eagerness = "eager" | "moderate";
type Rule = { source: "document"; where: unknown; eagerness: Eagerness };

function rule(eagerness: Eagerness): Rule {
  return {
    source: "document",
    where: { and: [{ href_matches: [...speculatedPaths] }, { not: { selector_matches: NOT_SPECULATED_SELECTOR } }] },
    eagerness,
  };
}

/**
 * Prefetch as soon as the pointer touches a link ("eager": Chromium waits 10 ms on desktop; the
 * answer is a stored page of a few kB), prerender once it rests there ("moderate": 200 ms, or a
 * press). A prerender reuses the prefetch; where prerendering is unsupported or refused (Safari,
 * DevTools, Save-Data) the prefetch alone remains.
 */
export const speculationRules = { prerender: [rule("moderate")], prefetch: [rule("eager")] };

/** The text of the page's `<script type="speculationrules">`. */
export const speculationRulesJson = JSON.stringify(speculationRules);
