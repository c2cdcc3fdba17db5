// What a GET's path and query come to, before any work: one of the site's routes (with the one
// canonical URL its answer is stored under), a redirect to a page's one address, React Router's data
// and manifest requests, a missing file of the client build, or the site's 404. (The build's files
// themselves are answered before this, from memory.) Nothing a stranger
// varies beyond that (other query parameters, letter case, trailing slashes) makes another answer.
import { matchPath } from "react-router";
import { pathOf, siteRoutes, type SiteRoute } from "~/site-routes";

export type Target =
  | { kind: "route"; route: SiteRoute; url: string; params: Record<string, string | undefined> }
  | { kind: "redirect"; location: string }
  | { kind: "pass" }
  /** Under /assets/ but not a file of the build: a short 404, never a page. */
  | { kind: "missing-file" }
  | { kind: "not-found" }
  /** React Router's data request for a path that has no page. */
  | { kind: "not-found-data" };

const exact = new Map(siteRoutes.filter((route) => !route.pattern.includes(":")).map((route) => [pathOf(route), route]));
const patterned = siteRoutes.filter((route) => route.pattern.includes(":"));

/** The route's canonical URL: its path and, in a fixed order, only the query values that change its answer. */
function canonicalUrl(route: SiteRoute, path: string, query: string): string {
  if (!route.query || query === "") return path;
  const search = new URLSearchParams(query);
  const kept: string[] = [];
  for (const [name, values] of Object.entries(route.query)) {
    const value = search.get(name);
    if (value !== null && values.includes(value)) kept.push(`${name}=${value}`);
  }
  return kept.length > 0 ? `${path}?${kept.join("&")}` : path;
}

/** React Router's data URL of a page URL (trailing-slash-aware form): "/about" → "/about.data", "/" → "/_.data". */
function dataUrl(url: string): string {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  return `${path === "/" ? "/_" : path}.data${queryAt === -1 ? "" : url.slice(queryAt)}`;
}

/** Resolves a request's path (as sent, not decoded) and query (without "?"). */
/** Whether the query holds a value the route no longer reads (its address without it is where it went). */
function retired(route: SiteRoute, query: string): boolean {
  if (!route.retiredQuery || query === "") return false;
  const search = new URLSearchParams(query);
  return Object.entries(route.retiredQuery).some(([name, values]) => values.includes(search.get(name) ?? ""));
}

/** A patterned route matching the path, with its parameters. */
function matchPatterned(path: string): { route: SiteRoute; params: Record<string, string | undefined> } | undefined {
  for (const candidate of patterned) {
    const match = matchPath({ path: pathOf(candidate), caseSensitive: true, end: true }, path);
    if (match) return { route: candidate, params: match.params };
  }
  return undefined;
}

export function resolveTarget(path: string, query: string): Target {
  const route = exact.get(path);
  if (route) {
    if (retired(route, query)) return { kind: "redirect", location: canonicalUrl(route, path, query) };
    return { kind: "route", route, url: canonicalUrl(route, path, query), params: {} };
  }
  // In-app navigation's data: stored like the page, under its canonical URL (React Router answers
  // every route's data when `_routes` is left out). Before the patterns, which would read
  // "/events/{id}.data" as an id.
  if (path.endsWith(".data")) {
    const page = path === "/_.data" ? "/" : path.slice(0, -".data".length);
    const dataRoute = exact.get(page);
    if (dataRoute) return { kind: "route", route: dataRoute, url: dataUrl(canonicalUrl(dataRoute, page, query)), params: {} };
    const matched = matchPatterned(page);
    // A page's data only: a route answering a file or JSON has none.
    if (!matched || !matched.route.file.endsWith(".tsx")) return { kind: "not-found-data" };
    return { kind: "route", route: matched.route, url: dataUrl(page), params: matched.params };
  }
  const matched = matchPatterned(path);
  if (matched) return { kind: "route", route: matched.route, url: path, params: matched.params };
  // React Router's lazy route discovery.
  if (path === "/__manifest") return { kind: "pass" };
  if (path.startsWith("/assets/")) return { kind: "missing-file" };
  // One address per page: /about/ and /About lead to /about.
  const stripped = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const canonical = exact.get(stripped) ?? exact.get(stripped.toLowerCase());
  if (canonical) return { kind: "redirect", location: canonicalUrl(canonical, pathOf(canonical), query) };
  return { kind: "not-found" };
}
