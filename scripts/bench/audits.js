// @ts-check
// What Lighthouse flags on a page: every scored audit below 1, plus the security audits it only
// reports as informative. Their offending items are in Lighthouse's own HTML report of the run.

/** @typedef {import("lighthouse").Result} LighthouseResult */

/**
 * @typedef {object} FlaggedAudit
 * @property {string} id Lighthouse audit id, e.g. "color-contrast".
 * @property {string} title
 * @property {string[]} categories Categories the audit belongs to.
 * @property {string} scoreDisplayMode
 * @property {number | null} score
 * @property {string | undefined} displayValue
 * @property {string | undefined} explanation
 */

/**
 * Security checks that Lighthouse 12 shows under Best Practices without scoring them; a page
 * with no CSP, HSTS, COOP or frame protection still scores 100, so we list their findings.
 */
const UNSCORED_BUT_WANTED = new Set(["csp-xss", "has-hsts", "origin-isolation", "clickjacking-mitigation", "trusted-types-xss"]);

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** @param {unknown} value */
function text(value) {
  if (typeof value === "string") return value;
  // Some fields are {type: "code"|"text"|"link", value|text}.
  if (isRecord(value)) return text(value.value ?? value.text);
  return undefined;
}

/**
 * @param {LighthouseResult} lhr
 * @returns {FlaggedAudit[]}
 */
export function flaggedAudits(lhr) {
  /** @type {Map<string, string[]>} */
  const categoriesOf = new Map();
  /** The metric audits are already figures in the table. */
  const metricIds = new Set();
  for (const category of Object.values(lhr.categories)) {
    for (const ref of category.auditRefs) {
      categoriesOf.set(ref.id, [...(categoriesOf.get(ref.id) ?? []), category.id]);
      if (ref.group === "metrics") metricIds.add(ref.id);
    }
  }
  /** @type {FlaggedAudit[]} */
  const flagged = [];
  for (const audit of Object.values(lhr.audits)) {
    if (metricIds.has(audit.id)) continue;
    const failing =
      audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== "informative" && audit.scoreDisplayMode !== "manual";
    const erred = audit.scoreDisplayMode === "error";
    const items = /** @type {{ items?: unknown[] } | undefined} */ (audit.details)?.items ?? [];
    const noted = UNSCORED_BUT_WANTED.has(audit.id) && audit.scoreDisplayMode === "informative" && items.length > 0;
    if (!failing && !erred && !noted) continue;
    flagged.push({
      id: audit.id,
      title: audit.title,
      categories: categoriesOf.get(audit.id) ?? [],
      scoreDisplayMode: audit.scoreDisplayMode,
      score: audit.score,
      displayValue: audit.displayValue,
      explanation: audit.explanation ?? audit.errorMessage,
    });
  }
  return flagged;
}

/**
 * Merges the flags of several runs of one route: an audit flagged in any run is listed, with
 * how many runs flagged it and its lowest score.
 * @param {FlaggedAudit[][]} runs
 * @returns {Array<FlaggedAudit & { flaggedInRuns: number }>}
 */
export function mergeFlagged(runs) {
  /** @type {Map<string, FlaggedAudit & { flaggedInRuns: number }>} */
  const merged = new Map();
  for (const run of runs) {
    for (const audit of run) {
      const seen = merged.get(audit.id);
      if (!seen) merged.set(audit.id, { ...audit, flaggedInRuns: 1 });
      else {
        seen.flaggedInRuns += 1;
        if ((audit.score ?? 1) < (seen.score ?? 1)) Object.assign(seen, { ...audit, flaggedInRuns: seen.flaggedInRuns });
      }
    }
  }
  const order = ["accessibility", "best-practices", "seo", "performance"];
  // Scored failures first, by category, then the unscored security notes.
  /** @param {FlaggedAudit} audit */
  const rank = (audit) =>
    (audit.scoreDisplayMode === "informative" ? order.length + 1 : 0) +
    Math.min(...audit.categories.map((id) => order.indexOf(id)).filter((index) => index >= 0), order.length);
  return [...merged.values()].sort((a, b) => rank(a) - rank(b) || (a.score ?? 1) - (b.score ?? 1) || a.id.localeCompare(b.id));
}

/**
 * Audits a 404 page fails by design, each only in the form our 404 gives it:
 * - http-status-code: Lighthouse fails any 4xx document, and unknown paths must answer 404.
 * - is-crawlable: only when the one blocker is the page's own `<meta name="robots" content="noindex">`.
 * - errors-in-console: only when every error is Chromium's "Failed to load resource: … 404" for the
 *   document itself.
 * Anything else stays counted, so a real problem on the 404 page still fails.
 * @param {LighthouseResult} lhr
 * @param {number | null} status The main document's HTTP status.
 * @returns {Set<string>}
 */
export function notFoundByDesign(lhr, status) {
  /** @type {Set<string>} */
  const excused = new Set();
  if (status !== 404) return excused;
  /** @param {string} id */
  const items = (id) => {
    const details = /** @type {{ items?: unknown } | undefined} */ (lhr.audits[id]?.details);
    return Array.isArray(details?.items) ? /** @type {Array<Record<string, unknown>>} */ (details.items) : [];
  };
  excused.add("http-status-code");
  const blockers = items("is-crawlable");
  const noindexMeta = (/** @type {Record<string, unknown>} */ item) =>
    isRecord(item.source) && /^<meta name="robots" content="noindex"\s*\/?>$/.test(String(text(item.source.snippet)));
  if (blockers.length > 0 && blockers.every(noindexMeta)) excused.add("is-crawlable");
  const errors = items("errors-in-console");
  const documentNotFound = (/** @type {Record<string, unknown>} */ item) =>
    item.source === "network" &&
    /status of 404/.test(String(item.description)) &&
    isRecord(item.sourceLocation) &&
    item.sourceLocation.url === (lhr.mainDocumentUrl ?? lhr.finalDisplayedUrl);
  if (errors.length > 0 && errors.every(documentNotFound)) excused.add("errors-in-console");
  return excused;
}

/**
 * A category's score (0–100) as Lighthouse computes it, the weighted mean of its scored audits,
 * leaving out `excluded`.
 * @param {LighthouseResult} lhr
 * @param {string} categoryId
 * @param {Set<string>} excluded
 * @returns {number | null}
 */
export function scoreWithout(lhr, categoryId, excluded) {
  const category = lhr.categories[categoryId];
  if (!category || typeof category.score !== "number") return null;
  if (excluded.size === 0) return Math.round(category.score * 100);
  let weighted = 0;
  let weights = 0;
  for (const ref of category.auditRefs) {
    const audit = lhr.audits[ref.id];
    if (!audit || ref.weight === 0 || excluded.has(ref.id) || typeof audit.score !== "number") continue;
    if (audit.scoreDisplayMode !== "binary" && audit.scoreDisplayMode !== "numeric" && audit.scoreDisplayMode !== "metricSavings") continue;
    weighted += ref.weight * audit.score;
    weights += ref.weight;
  }
  return weights === 0 ? null : Math.round((weighted / weights) * 100);
}
