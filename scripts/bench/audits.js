// @ts-check
// The 404 page judged without the audits it fails by design. Everything else Lighthouse flags is in its own report of each run (the .html
// files beside the bench's results).

/** @typedef {import("lighthouse").Result} LighthouseResult */

/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** A field's text: some fields are {type: "code"|"text"|"link", value|text}. @param {unknown} value @returns {string | undefined} */
const text = (value) => (typeof value === "string" ? value : isRecord(value) ? text(value.value ?? value.text) : undefined);

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
 * A category's score (0–100) as Lighthouse computes it, the weighted mean of its scored audits, leaving out `excluded`.
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
