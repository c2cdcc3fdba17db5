import type { Browser, BrowserContext } from "@playwright/test";
import type { FakeGoogleCalendar } from "../fakes/google-calendar";
import type { RunningServer } from "../support/start-server";
import {
  BLOCKED_MESSAGE,
  assertNoConsoleIssues,
  expect,
  guardContext,
  scrollToBottom,
  test,
  waitForHydration,
  waitForQuietNetwork,
  type Guard,
} from "./fixtures";
import { startGoogleBackedServer, stopGoogleBackedServer } from "./support/google-server";

// Self-tests of the guard in fixtures.ts: it must catch console errors, warnings, page errors and
// hydration mismatches (the `page` fixture fails a test by calling assertNoConsoleIssues), and must
// not be tripped by the external requests the browser refuses to send. Each case runs in its own guarded
// context so that the provoked errors do not fail this test through the `page` fixture.

async function guarded(browser: Browser, baseURL: string | undefined): Promise<{ context: BrowserContext; guard: Guard }> {
  const context = await browser.newContext({ baseURL });
  return { context, guard: guardContext(context) };
}

test.describe("the console guard", () => {
  test("catches console.error, console.warn and uncaught page errors", async ({ browser, baseURL }) => {
    const { context, guard } = await guarded(browser, baseURL);
    const page = await context.newPage();
    await page.goto("/about");
    await waitForHydration(page);
    expect(() => assertNoConsoleIssues(guard)).not.toThrow();

    await page.evaluate(() => console.error("something broke"));
    await page.evaluate(() => console.warn("something looks off"));
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error("uncaught");
      }, 0),
    );
    await expect.poll(() => guard.issues.map((i) => i.kind)).toEqual(["console.error", "console.warning", "pageerror"]);
    expect(() => assertNoConsoleIssues(guard)).toThrow(/something broke[\s\S]*something looks off[\s\S]*uncaught/);
    await context.close();
  });

  test("catches a hydration mismatch", async ({ browser, baseURL }) => {
    const { context, guard } = await guarded(browser, baseURL);
    // Serve the real page with its server-rendered heading altered, so the client's render differs.
    await context.route(
      (url) => url.pathname === "/about",
      async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace("Run by founders, for founders", "Tampered heading");
        await route.fulfill({ response, body: html });
      },
    );
    const page = await context.newPage();
    await page.goto("/about");
    await waitForHydration(page);
    await expect.poll(() => guard.issues.length).toBeGreaterThan(0);
    expect(guard.issues.map((i) => i.text).join("\n")).toMatch(/hydrat|#418|#425/i);
    expect(() => assertNoConsoleIssues(guard)).toThrow();
    await context.close();
  });

  test("catches a local resource that fails to load", async ({ browser, baseURL }) => {
    const { context, guard } = await guarded(browser, baseURL);
    const page = await context.newPage();
    await page.goto("/");
    await waitForHydration(page);
    await page.evaluate(() => {
      const img = document.createElement("img");
      img.src = "/images/does-not-exist.webp";
      document.body.append(img);
    });
    await expect.poll(() => guard.issues.length).toBeGreaterThan(0);
    expect(() => assertNoConsoleIssues(guard)).toThrow(/404/);
    await context.close();
  });
});

test.describe("the request guard", () => {
  // The site's Content-Security-Policy would refuse this image before any request: the guard must
  // also hold for what the policy allows (the calendar frame, the survey form), so test it without.
  test.use({ bypassCSP: true });

  test("blocks requests leaving the machine and tolerates only their load errors", async ({ page, guard }) => {
    await page.goto("/");
    await waitForHydration(page);
    const outcome = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const img = document.createElement("img");
          img.onload = () => resolve("loaded");
          img.onerror = () => resolve("blocked");
          img.src = "https://example.com/tracker.gif";
          document.body.append(img);
        }),
    );
    expect(outcome).toBe("blocked");
    expect(guard.blocked).toContain("https://example.com/tracker.gif");
    await expect.poll(() => guard.tolerated).toEqual([`${BLOCKED_MESSAGE} (at https://example.com/tracker.gif)`]);
    expect(guard.issues).toEqual([]);
  });
});

// The calendar is embedded only when GOOGLE_CALENDAR_ID names one (the sample shows none).
test.describe("the console guard and the embedded calendar", () => {
  let fake: FakeGoogleCalendar;
  let server: RunningServer;
  test.beforeAll(async () => {
    ({ fake, server } = await startGoogleBackedServer("normal"));
  });
  test.afterAll(() => stopGoogleBackedServer({ fake, server }));

  test("blocks the events page's calendar iframe and does not fail the test", async ({ page, guard }) => {
    await page.goto(`${server.url}/events`);
    await waitForHydration(page);
    await expect(page.getByTitle(/shared events calendar/)).toBeAttached();
    await scrollToBottom(page);
    await expect.poll(() => guard.blocked.some((u) => u.startsWith("https://calendar.google.com/"))).toBe(true);
    expect(guard.issues).toEqual([]);
  });
});

test.describe("waitForQuietNetwork", () => {
  test("waits for a slow request, and names a request that never ends", async ({ browser, baseURL }) => {
    const { context } = await guarded(browser, baseURL);
    // Each request is held until the test lets it go: as slow as the test needs, on any machine.
    const gate = () => {
      let open = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened };
    };
    const slow = gate();
    const hung = gate();
    await context.route("**/slow.txt", async (route) => {
      await slow.opened;
      await route.fulfill({ body: "slow" });
    });
    await context.route("**/hung.txt", async (route) => {
      await hung.opened;
      await route.fulfill({ body: "late" });
    });
    const page = await context.newPage();
    await page.goto("/about");
    await waitForQuietNetwork(page);

    // Wait until Playwright has seen the request: evaluate() returns before its event arrives.
    await Promise.all([page.waitForRequest("**/slow.txt"), page.evaluate(() => void fetch("/slow.txt"))]);
    let quiet: number | undefined;
    const waited = waitForQuietNetwork(page).then(() => (quiet = Date.now()));
    // Still waiting while the request is held (the wait polls every 50 ms: give it a few turns).
    await expect(waitForQuietNetwork(page, 0, 300)).rejects.toThrow(/in flight: http:\/\/[^ ]+\/slow\.txt/);
    expect(quiet).toBeUndefined();
    const answered = Date.now();
    slow.open();
    await waited;
    // Then 0.5 s of quiet after the answer.
    expect(quiet! - answered).toBeGreaterThanOrEqual(500);

    await Promise.all([page.waitForRequest("**/hung.txt"), page.evaluate(() => void fetch("/hung.txt"))]);
    await expect(waitForQuietNetwork(page, 500, 1_000)).rejects.toThrow(/in flight: http:\/\/[^ ]+\/hung\.txt/);
    hung.open();
    await waitForQuietNetwork(page);
    await context.close();
  });
});
