// @ts-check
// The events' list pages as a crawler meets them: from /events by plain links (no JavaScript) through both tabs and
// every page of the archive. One crawl for the bench (event-lists.js, calendar-scale.js) and the archive's test
// (tests/integration/events-archive.test.ts), so the bench measures the pages the test holds to its rules.

/** A list page: /events, its Past tab, or a page of the archive. @param {string} path */
export const isListPage = (path) => /^\/events(\?tab=past)?$|^\/events\/month\//.test(path);

/** The same-site links of a page, as a crawler reads them. @param {string} html */
export const linksOf = (html) => [...html.matchAll(/<a [^>]*href="(\/[^"]*)"/g)].map((match) => (match[1] ?? "").replace(/&amp;/g, "&"));

/** The event pages (`/events/<id>`) some page links. @param {Iterable<string>} pages their HTML */
export const eventPagesLinked = (pages) => new Set([...pages].flatMap(linksOf).filter((link) => /^\/events\/[\w-]+$/.test(link)));

/**
 * Every list page reached from /events by links, breadth-first, each read once by `read` (which throws on an answer
 * that is not the page).
 * @param {(path: string) => Promise<string>} read the HTML at a path
 * @returns {Promise<Map<string, string>>} path → HTML, in the order the crawl met them
 */
export async function crawlListPages(read) {
  /** @type {Map<string, string>} */
  const pages = new Map();
  const seen = new Set(["/events"]);
  const queue = ["/events"];
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    const html = await read(path);
    pages.set(path, html);
    for (const link of linksOf(html)) {
      if (isListPage(link) && !seen.has(link)) {
        seen.add(link);
        queue.push(link);
      }
    }
  }
  return pages;
}
