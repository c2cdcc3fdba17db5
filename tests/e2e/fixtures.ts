import { test as base, expect, type BrowserContext, type ConsoleMessage, type Page, type Request } from "@playwright/test";
import { waitUntil } from "../support/wait";
import { pageSettled } from "./support/settled";

/** Hosts the tests may reach: our own server only. */
export function isLoopback(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  if (protocol !== "http:" && protocol !== "https:" && protocol !== "ws:" && protocol !== "wss:") return false;
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
}

export type ConsoleIssue = { kind: "console.error" | "console.warning" | "pageerror"; text: string; url: string };

export type Guard = {
  /** Documents our server answered with 404 (unknown paths, which tests navigate to on purpose). */
  notFoundDocuments: string[];
  /** Console errors/warnings and uncaught page errors seen so far, in every page of the context. */
  issues: ConsoleIssue[];
  /** Non-loopback URLs whose requests failed: the browser refuses to send them (OFFLINE_FLAGS, scripts/chromium.js). */
  blocked: string[];
  /** Console messages the guard tolerated (for debugging the filter). */
  tolerated: string[];
};

/**
 * Records the requests that tried to leave the machine (the browser refuses them itself: OFFLINE_FLAGS in
 * scripts/chromium.js), console problems and page errors. Exported for tests that make their own contexts.
 */
export function guardContext(context: BrowserContext): Guard {
  const guard: Guard = { issues: [], blocked: [], notFoundDocuments: [], tolerated: [] };
  trackNetwork(context);

  context.on("requestfailed", (request) => {
    if (!isLoopback(request.url())) guard.blocked.push(request.url());
  });

  context.on("response", (response) => {
    const request = response.request();
    if (response.status() === 404 && request.isNavigationRequest() && request.resourceType() === "document" && isLoopback(response.url())) {
      guard.notFoundDocuments.push(response.url());
    }
  });

  context.on("console", (msg: ConsoleMessage) => {
    const type = msg.type();
    if (type !== "error" && type !== "warning") return;
    const url = msg.location().url;
    if (isExpectedBlockNoise(msg) || isNotFoundDocumentNoise(msg, guard.notFoundDocuments)) {
      guard.tolerated.push(`${msg.text()} (at ${url})`);
      return;
    }
    guard.issues.push({ kind: type === "error" ? "console.error" : "console.warning", text: msg.text(), url });
  });
  context.on("weberror", (webError) => {
    const error = webError.error();
    guard.issues.push({ kind: "pageerror", text: `${error.name}: ${error.message}`, url: webError.page()?.url() ?? "" });
  });

  return guard;
}

type NetworkTracker = { inFlight: Set<Request>; lastChange: number };
const networkTrackers = new WeakMap<BrowserContext, NetworkTracker>();

/** Counts the context's requests in flight (every frame's), for waitForQuietNetwork. */
function trackNetwork(context: BrowserContext): void {
  const tracker: NetworkTracker = { inFlight: new Set(), lastChange: Date.now() };
  const settled = (request: Request) => {
    tracker.inFlight.delete(request);
    tracker.lastChange = Date.now();
  };
  context.on("request", (request) => {
    tracker.inFlight.add(request);
    tracker.lastChange = Date.now();
  });
  context.on("requestfinished", settled);
  context.on("requestfailed", settled);
  networkTrackers.set(context, tracker);
}

/**
 * Waits until no request has been in flight for `quietMs`. Playwright's "networkidle" also waits on
 * every frame's lifecycle, and hung for 15 s once in 450 runs after the guard aborted the calendar
 * iframe; this counts requests only, and names the ones still open when it gives up (its own limit,
 * under the test's, so that the failure names them).
 */
export async function waitForQuietNetwork(page: Page, quietMs = 500, timeoutMs = 15_000): Promise<void> {
  const tracker = networkTrackers.get(page.context());
  if (!tracker) throw new Error("waitForQuietNetwork needs a context made by guardContext (the test's own page has one)");
  await waitUntil(() => tracker.inFlight.size === 0 && Date.now() - tracker.lastChange >= quietMs, {
    timeoutMs,
    message: () => {
      const open = [...tracker.inFlight].map((r) => r.url()).join(", ") || "none (requests kept starting)";
      return `the network did not go quiet for ${quietMs} ms within ${timeoutMs} ms; in flight: ${open}`;
    },
  });
}

/** Chromium's console message for a request it refused to send off the machine (OFFLINE_FLAGS). */
export const BLOCKED_MESSAGE = "Failed to load resource: net::ERR_PROXY_CONNECTION_FAILED";

/** The only console noise we tolerate: that message, for a request to another host (e.g. the calendar iframe). */
function isExpectedBlockNoise(msg: ConsoleMessage): boolean {
  return msg.type() === "error" && msg.text() === BLOCKED_MESSAGE && !isLoopback(msg.location().url);
}

/**
 * Chromium also logs "Failed to load resource: ... 404" for a page whose document is a 404,
 * which is exactly what an unknown path must answer. Tolerated only for that document's own URL.
 */
function isNotFoundDocumentNoise(msg: ConsoleMessage, notFoundDocuments: string[]): boolean {
  return (
    msg.type() === "error" &&
    msg.text() === "Failed to load resource: the server responded with a status of 404 (Not Found)" &&
    notFoundDocuments.includes(msg.location().url)
  );
}

export function formatIssues(issues: ConsoleIssue[]): string {
  return issues.map((i) => `  [${i.kind}] ${i.text}${i.url ? ` (at ${i.url})` : ""}`).join("\n");
}

/** Throws, listing them, if the guard saw any console error/warning or page error. */
export function assertNoConsoleIssues(guard: Guard): void {
  if (guard.issues.length > 0) {
    throw new Error(`Console errors/warnings or page errors during the test:\n${formatIssues(guard.issues)}`);
  }
}

type Fixtures = {
  /** Live list of console problems for the test's context; the test fails at the end if it is not empty. */
  consoleIssues: ConsoleIssue[];
  /** Non-loopback requests that were blocked. */
  blockedRequests: string[];
  /** The guard of the test's context (for the fixture's self-tests). */
  guard: Guard;
};

export const test = base.extend<Fixtures>({
  guard: async ({ context }, use) => {
    await use(guardContext(context));
  },

  consoleIssues: async ({ guard }, use) => {
    await use(guard.issues);
  },

  blockedRequests: async ({ guard }, use) => {
    await use(guard.blocked);
  },

  // Every test's page: external requests blocked, and the test fails on any console problem.
  page: async ({ page, guard, javaScriptEnabled }, use, testInfo) => {
    await use(page);
    // Late errors (e.g. a hydration error reported after the last action) surface before the check.
    // Without JavaScript nothing runs late (and the page cannot be asked to settle).
    if (javaScriptEnabled !== false && !page.isClosed()) await pageSettled(page).catch(() => undefined);
    if (guard.tolerated.length > 0) {
      await testInfo.attach("tolerated-console-messages", { body: guard.tolerated.join("\n"), contentType: "text/plain" });
    }
    if (guard.issues.length > 0) {
      await testInfo.attach("console-issues", { body: formatIssues(guard.issues), contentType: "text/plain" });
    }
    assertNoConsoleIssues(guard);
  },
});

export { expect };

/**
 * For a describe whose server starts in beforeAll: its tests run in one worker, in order. Spread over the workers (the
 * suite is fully parallel), each worker would start and read a server of its own.
 */
export function oneServerForTheGroup(): void {
  test.describe.configure({ mode: "default" });
}

/** React DOM's chunk held back: how many requests for it are waiting, and a way to let them go. */
export type HeldReact = { held: () => number; release: () => void };

/**
 * Holds React DOM's chunk until the test releases it (if ever), so whatever works before React runs can be checked
 * for as long as the test needs, on any machine.
 */
export async function holdReact(page: Page): Promise<HeldReact> {
  let held = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (!body.includes("__reactContainer$")) return route.fallback();
    held++;
    await released;
    await route.fulfill({ response, body });
  });
  return { held: () => held, release };
}

/**
 * The page's scripts start on a visitor's first interaction (app/lib/deferred-scripts.ts): a press starts them at
 * once, where a pointer's move waits for a pause (1 s a page). The press is dispatched on the page's root, so it
 * lands on no link or control and moves neither the focus nor the input modality; then this waits until React owns
 * the page (React attaches its fiber to hydrated nodes). first-interaction.spec.ts drives the real inputs.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.evaluate(() => document.documentElement.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true })));
  await page.waitForFunction(isHydrated);
}

/** Runs in the page: whether React has hydrated the document. */
export function isHydrated(): boolean {
  const main = document.getElementById("main");
  return main !== null && Object.keys(main).some((key) => key.startsWith("__reactFiber$"));
}

/** Scrolls to the bottom in steps, so lazy images and iframes start loading. */
export async function scrollToBottom(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const step = Math.max(200, Math.floor(window.innerHeight * 0.8));
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 50));
    }
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
}

export const PAGES = [
  { path: "/", h1: "Join the private network for founders", navLabel: "Homepage" },
  { path: "/apply", h1: "Apply to Join", navLabel: null },
  { path: "/about", h1: "Run by founders, for founders", navLabel: "About Us" },
  { path: "/contact", h1: "We would love to hear from you", navLabel: "Contact Us" },
  { path: "/events", h1: "Member Events", navLabel: "Member Events" },
  { path: "/portal", h1: "Member Portal", navLabel: "Member Portal" },
] as const;

export const NOT_FOUND_PATH = "/this-page-does-not-exist";

export const PHONE = { width: 375, height: 812 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
/** An iPad held upright: the widest screen with the drawer instead of the inline navigation. */
export const TABLET = { width: 768, height: 1024 } as const;
