import type { Page } from "@playwright/test";
import { DESKTOP, expect, test, waitForHydration, waitForQuietNetwork } from "./fixtures";
import { FULL_BROWSER } from "./support/full-browser";

// Issue 30: a page whose scripts have run is as light to leave as a static one. Nothing of ours
// runs on the way out (no beforeunload, unload or pagehide handler, nothing written to storage), and the page stays eligible for the back/forward cache: Chromium
// keeps it, and says why in notRestoredReasons when it does not. The fixture fails the test on any page error.

const TRIPS = [
  { from: "/", link: "About Us", to: /\/about$/ },
  { from: "/about", link: "Member Events", to: /\/events$/ },
  { from: "/events", link: "Contact Us", to: /\/contact$/ },
] as const;

/** The event types with listeners on window, as DevTools lists them. */
async function windowListeners(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send("Runtime.evaluate", { expression: "window" });
    const { listeners } = await cdp.send("DOMDebugger.getEventListeners", { objectId: result.objectId ?? "" });
    return listeners.map((listener) => listener.type);
  } finally {
    await cdp.detach();
  }
}

// The headless shell the other tests run in has no back/forward cache: the full browser, with its cache on.
test.use({ launchOptions: FULL_BROWSER, viewport: DESKTOP });

test.describe("leaving a page whose scripts have run", () => {
  for (const trip of TRIPS) {
    test(`${trip.from}: nothing runs on the way out, and back comes from the back/forward cache`, async ({ page }) => {
      await page.goto(trip.from);
      await waitForHydration(page);
      await waitForQuietNetwork(page);
      const types = await windowListeners(page);
      expect(types).toContain("popstate"); // React Router's own: the listing works.
      for (const leaving of ["beforeunload", "unload"]) expect(types, types.join(", ")).not.toContain(leaving);
      // One pagehide listener is React Router's router's own: it writes its view transitions, of which we have none
      // (storage stays empty, below). <ScrollRestoration>'s, which wrote every scroll position, is gone.
      expect(
        types.filter((type) => type === "pagehide"),
        types.join(", "),
      ).toHaveLength(1);

      await page.evaluate(() =>
        window.addEventListener("pageshow", (event) => ((window as unknown as Record<string, boolean>).__restored = event.persisted)),
      );
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: trip.link, exact: true }).click();
      await expect(page).toHaveURL(trip.to);
      // A page restored from the cache fires no load event.
      await page.goBack({ waitUntil: "commit" });
      await expect(page).toHaveURL(new RegExp(`${trip.from === "/" ? "/" : trip.from}$`));
      const back = await page.evaluate(() => ({
        restored: (window as unknown as Record<string, boolean>).__restored === true,
        // Chromium (123+): why a page was not restored, on the navigation entry of the page loaded instead.
        reasons: JSON.stringify(
          (performance.getEntriesByType("navigation")[0] as PerformanceEntry & { notRestoredReasons?: unknown })?.notRestoredReasons ??
            null,
        ),
        stored: sessionStorage.length + localStorage.length,
      }));
      expect(back.restored, `not restored from the back/forward cache: ${back.reasons}`).toBe(true);
      expect(back.stored).toBe(0);
    });
  }
});
