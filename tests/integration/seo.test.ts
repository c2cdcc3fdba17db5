import { beforeAll, describe, expect, it } from "vitest";
import { about, apply, site } from "~/content";
import { suiteClock } from "../support/clock";
import { SHARED_SERVER_ENV } from "../support/environments";
import { schemaEndInstant } from "../support/event-time";
import { sharedServer } from "../support/shared-server";

// Search and sharing, read from the built server's HTML as a crawler reads it: the structured
// data parses and says the right things, every page has its own title and description, and the
// social image is a real file shipped with the site.

const { SITE_URL } = SHARED_SERVER_ENV;
const PATHS = ["/", "/apply", "/about", "/contact", "/events", "/portal"];
const NOT_FOUND = "/no-such-page";

const server = sharedServer();
const html = new Map<string, string>();

beforeAll(async () => {
  for (const path of [...PATHS, NOT_FOUND]) {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(path === NOT_FOUND ? 404 : 200);
    html.set(path, await res.text());
  }
});

type Json = Record<string, unknown>;

const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** Every JSON-LD block of a page, parsed (a block may hold one object or an array of them). */
function jsonLd(page: string): Json[] {
  const blocks = [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  return blocks.flatMap((block) => {
    const value = JSON.parse(block) as Json | Json[];
    return Array.isArray(value) ? value : [value];
  });
}

/** Attributes of every <meta> tag. */
function metas(page: string): Array<Record<string, string>> {
  return [...page.matchAll(/<meta\b[^>]*>/g)].map((m) =>
    Object.fromEntries([...m[0].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1]!, decode(a[2]!)])),
  );
}
const meta = (page: string, key: string) => metas(page).find((m) => m.property === key || m.name === key)?.content;

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  expect([...bytes.subarray(0, 8)]).toEqual(signature);
  expect(new TextDecoder().decode(bytes.subarray(12, 16))).toBe("IHDR");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Fetches a public URL of the site from the test server; it must be ours and be a PNG image. */
async function shippedPng(url: string): Promise<{ width: number; height: number }> {
  const { origin, pathname } = new URL(url);
  expect(origin).toBe(SITE_URL);
  const res = await fetch(`${server.url}${pathname}`);
  expect(res.status, url).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^image\/png/);
  return pngSize(new Uint8Array(await res.arrayBuffer()));
}

const isoDate = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

describe("Organization structured data", () => {
  it.each([...PATHS, NOT_FOUND])("%s has exactly one valid Organization block", async (path) => {
    const orgs = jsonLd(html.get(path)!).filter((item) => item["@type"] === "Organization");
    expect(orgs).toHaveLength(1);
    const org = orgs[0]!;
    expect(org["@context"]).toBe("https://schema.org");
    expect(org.name).toBe(site.name);
    expect(org.url).toBe(SITE_URL);
    expect(org["@id"]).toBe(`${SITE_URL}/#organization`);
    // A non-profit, and it says it is not affiliated with the university, as the site does.
    expect(org.nonprofitStatus).toBe(`https://schema.org/${site.nonprofitStatus}`);
    expect(org.description).toContain(site.description);
    expect(org.description).toContain(about.disclaimer);
    expect(org.description).toMatch(/not-for-profit/i);
    expect(org.description).toMatch(/not affiliated with[^.]*University/);
    expect(org.email).toBe(site.email);
    expect(org).not.toHaveProperty("parentOrganization");
    for (const url of (org.sameAs as string[] | undefined) ?? []) expect(url).toMatch(/^https:\/\//);
  });

  it("points at a square logo shipped with the site, at the size it declares", async () => {
    const org = jsonLd(html.get("/")!).find((item) => item["@type"] === "Organization")!;
    const logo = org.logo as Json;
    expect(logo["@type"]).toBe("ImageObject");
    const size = await shippedPng(logo.url as string);
    expect(size).toEqual({ width: logo.width, height: logo.height });
    // Search engines want at least 112 px.
    expect(size.width).toBeGreaterThanOrEqual(112);
    expect(size.width).toBe(size.height);
  });
});

describe("Event structured data on /events", () => {
  const events = () => jsonLd(html.get("/events")!).filter((item) => item["@type"] === "Event");

  it("describes each upcoming event shown on the page", () => {
    // The Upcoming list, before the Past one (in the page too, hidden).
    const page = html.get("/events")!;
    const shown = (page.slice(0, page.indexOf('<div data-tab-panel="past"')).match(/<article\b/g) ?? []).length;
    expect(shown).toBeGreaterThan(0);
    expect(events()).toHaveLength(shown);
  });

  it("gives every event the properties schema.org and search engines require", () => {
    for (const event of events()) {
      const label = String(event.name);
      expect(event["@context"], label).toBe("https://schema.org");
      expect(typeof event.name === "string" && event.name.trim().length > 0, label).toBe(true);
      expect(event.startDate, label).toMatch(isoDate);
      expect(event.endDate, label).toMatch(isoDate);
      expect(Date.parse(event.endDate as string), `${label} ends after it starts`).toBeGreaterThanOrEqual(
        Date.parse(event.startDate as string),
      );
      expect(schemaEndInstant(event), `${label} is upcoming`).toBeGreaterThan(suiteClock().now());
      expect(event.eventStatus, label).toMatch(/^https:\/\/schema\.org\/Event(Scheduled|Cancelled|Postponed|Rescheduled|MovedOnline)$/);
      expect(event.eventAttendanceMode, label).toMatch(/^https:\/\/schema\.org\/(Offline|Online|Mixed)EventAttendanceMode$/);

      const location = event.location as Json;
      if (location["@type"] === "Place") {
        expect(event.eventAttendanceMode, label).not.toMatch(/Online/);
        expect(String(location.name ?? "").length, label).toBeGreaterThan(0);
        expect(String(location.address ?? "").length, label).toBeGreaterThan(0);
        // A Place must be somewhere one can go.
        expect(String(location.address), label).not.toMatch(/^(online|virtual)\b/i);
      } else {
        expect(location["@type"], label).toBe("VirtualLocation");
        expect(event.eventAttendanceMode, label).toMatch(/Online|Mixed/);
        expect(URL.canParse(String(location.url)), label).toBe(true);
      }

      const organizer = event.organizer as Json;
      expect(organizer, label).toMatchObject({ "@type": "Organization", name: site.name, url: SITE_URL });
    }
  });

  it("covers both in-person and online events from the sample calendar", () => {
    const kinds = new Set(events().map((e) => (e.location as Json)["@type"]));
    expect(kinds).toEqual(new Set(["Place", "VirtualLocation"]));
  });
});

describe("FAQPage structured data on /apply", () => {
  it("has one FAQPage whose questions and answers are the ones the page shows", () => {
    const page = html.get("/apply")!;
    const faqs = jsonLd(page).filter((item) => item["@type"] === "FAQPage");
    expect(faqs).toHaveLength(1);
    const faq = faqs[0]!;
    expect(faq["@context"]).toBe("https://schema.org");
    const questions = faq.mainEntity as Json[];
    expect(questions.length).toBeGreaterThanOrEqual(4);
    expect(questions).toHaveLength(apply.faq.length);
    for (const [index, question] of questions.entries()) {
      expect(question["@type"]).toBe("Question");
      expect(question.name).toBe(apply.faq[index]!.question);
      expect(question.acceptedAnswer).toEqual({ "@type": "Answer", text: apply.faq[index]!.answer });
      // Google requires the questions and answers to be visible on the page.
      expect(decode(page)).toContain(String(question.name));
      expect(decode(page)).toContain(apply.faq[index]!.answer);
    }
    // Only /apply carries it.
    for (const path of PATHS.filter((p) => p !== "/apply"))
      expect(jsonLd(html.get(path)!).some((i) => i["@type"] === "FAQPage")).toBe(false);
  });
});

describe("titles, descriptions and social cards", () => {
  const all = [...PATHS, NOT_FOUND];

  it("gives every page, the 404 included, its own title and description", () => {
    const titles = all.map((path) => decode(/<title>([^<]*)<\/title>/.exec(html.get(path)!)?.[1] ?? ""));
    const descriptions = all.map((path) => meta(html.get(path)!, "description") ?? "");
    for (const [i, path] of all.entries()) {
      expect(titles[i]!.length, `${path} title`).toBeGreaterThan(10);
      // The 404's is short ("Page not found" and so on); it is not indexed.
      expect(descriptions[i]!.length, `${path} description`).toBeGreaterThan(path === NOT_FOUND ? 10 : 40);
    }
    expect(new Set(titles).size, titles.join(" | ")).toBe(all.length);
    expect(new Set(descriptions).size, descriptions.join(" | ")).toBe(all.length);
  });

  it.each(all)("%s has an og:image shipped with the site, 1200×630, and a Twitter card", async (path) => {
    const page = html.get(path)!;
    const image = meta(page, "og:image");
    expect(image).toBeDefined();
    expect(URL.canParse(image!) && new URL(image!).protocol === "https:", `${image} is absolute`).toBe(true);
    const size = await shippedPng(image!);
    expect(size).toEqual({ width: 1200, height: 630 });
    expect(meta(page, "og:image:width")).toBe("1200");
    expect(meta(page, "og:image:height")).toBe("630");
    expect(meta(page, "og:image:alt")?.length).toBeGreaterThan(0);
    expect(meta(page, "twitter:card")).toBe("summary_large_image");
    expect(meta(page, "twitter:image")).toBe(image);
  });
});
