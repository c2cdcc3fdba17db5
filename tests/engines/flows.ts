// The site's core flows at a phone's width, the same in every engine: the expectations and
// selectors of the Chromium tests (tests/e2e/{widths,drawer,first-interaction,hydration,navigation,
// events}.spec.ts), checked from outside through real clicks and key presses.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import { waitUntil } from "../support/wait";
import { PHONE, tap, waitFor, type Engine } from "./support/engine";
import { headingText, isHydrated, isSameDocument, markDocument, measureWidth, scriptFiles, takePageProblems } from "./support/page";

declare module "vitest" {
  interface TaskMeta {
    /** Where a failed test's screenshot is (tests/engines/summary-reporter.ts prints it). */
    screenshot?: string;
  }
}

const SCREENSHOTS = "test-results/engines";

const MENU_BUTTON = 'button[aria-label="Open menu"]';
const DRAWER = "dialog#site-menu";
const NOT_FOUND_PATH = "/this-page-does-not-exist";

/** The first event on the list: its own page is one of the pages that must fit. */
const FIRST_EVENT = 'main article a[href^="/events/"]';

/** Every kind of page: the h1 each shows (as tests/e2e/fixtures.ts's PAGES), or a pattern for the event's own. */
const PAGES: { path: string; h1: string | RegExp }[] = [
  { path: "/", h1: "Join the private network for founders" },
  { path: "/about", h1: "Run by founders, for founders" },
  { path: "/apply", h1: "Apply to Join" },
  { path: "/contact", h1: "We would love to hear from you" },
  { path: "/portal", h1: "Member Portal" },
  { path: "/events", h1: "Member Events" },
  { path: "/events?tab=past", h1: "Member Events" },
  { path: "an event's page", h1: /\S/ },
  { path: NOT_FOUND_PATH, h1: "404 Page Not Found" },
];

/**
 * Starts the page's scripts with a tap on the page's heading, which does nothing else (as
 * tests/e2e/hydration.spec.ts). A key would do too, but not while an events tab has the focus:
 * the start script leaves every event on a tab to the tab (deferred-scripts.ts).
 */
async function hydrate(engine: Engine): Promise<void> {
  await tap(engine, "h1");
  await waitFor(engine, "React hydrates after a tap", isHydrated);
}

/** Runs in the page: the drawer is open and has slid in (its left edge at the window's, no animation running). */
function drawerOpen(selector: string): boolean {
  const dialog = document.querySelector<HTMLDialogElement>(selector);
  if (!dialog?.open) return false;
  return dialog.getBoundingClientRect().left === 0 && document.getAnimations().every((a) => a.playState !== "running");
}

/** Every task queued so far has run and a frame was painted (cf. tests/e2e/support/settled.ts). */
const settled = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

export function describeFlows(name: string, launch: (baseURL: string) => Promise<Engine>): void {
  describe(name, () => {
    let engine: Engine;
    /** Script problems of the documents this test has left. */
    const leftBehind: string[] = [];

    /** The current document's problems, then the page at `path`. */
    const visit = async (path: string) => {
      leftBehind.push(...((await engine.evaluate(takePageProblems)) ?? []));
      await engine.goto(path);
    };

    beforeAll(async () => {
      engine = await launch(inject("baseURL"));
      console.log(`[${engine.name}] ${engine.version}`);
    });
    afterAll(async () => {
      await engine?.close();
    });

    beforeEach(({ task, onTestFailed }) => {
      onTestFailed(async () => {
        if (!engine) return;
        mkdirSync(SCREENSHOTS, { recursive: true });
        const slug =
          task.name
            .replace(/[^\w]+/g, "-")
            .replace(/^-|-$/g, "")
            .slice(0, 80) || "home";
        const file = path.join(SCREENSHOTS, `${engine.name}-${slug}.png`);
        try {
          await engine.screenshot(file);
          task.meta.screenshot = file;
          console.error(`[${engine.name}] FAILED "${task.name}": screenshot ${file}`);
        } catch (error) {
          console.error(`[${engine.name}] FAILED "${task.name}": no screenshot (${String(error)})`);
        }
      });
    });

    // No test may leave a script problem or a request off the machine behind it.
    afterEach(async () => {
      await engine.evaluate(settled);
      const inPage = await engine.evaluate(takePageProblems);
      const problems = [
        ...leftBehind.splice(0),
        ...(inPage ?? ["the page was loaded anew behind the suite's back: its problems were not collected"]),
        ...(await engine.takeEngineProblems()),
      ];
      const blocked = engine.takeBlocked();
      expect(problems, `[${engine.name}] script problems`).toEqual([]);
      expect(blocked, `[${engine.name}] requests that tried to leave the machine (refused)`).toEqual([]);
    });

    // The guards themselves, so a browser update that slips past them is seen (cf. tests/e2e/fixtures.spec.ts).
    test("the suite's guards see what they must: requests off the machine (refused), script errors, a page too wide", async () => {
      // Nothing left the machine as the engine started.
      expect(engine.takeBlocked()).toEqual([]);
      await visit("about:blank");
      await engine.evaluate(() => {
        void fetch("http://example.com/off-the-machine").catch(() => undefined);
        new Image().src = "https://example.org/off-the-machine.png";
      });
      const wanted = ["GET http://example.com/off-the-machine", "CONNECT example.org:443"];
      const blocked: string[] = [];
      // No message: past 10 s the assertion below names what was not blocked.
      await waitUntil(() => (blocked.push(...engine.takeBlocked()), wanted.every((w) => blocked.includes(w))), { timeoutMs: 10_000 });
      expect([...new Set(blocked)].sort()).toEqual(wanted.sort());

      await visit("/");
      await engine.evaluate(() => {
        console.error("a console error");
        setTimeout(() => {
          throw new Error("an uncaught error");
        });
        const wide = document.createElement("div");
        wide.style.width = "600px";
        wide.style.height = "10px";
        document.body.append(wide);
      });
      await engine.evaluate(settled);
      const problems = (await engine.evaluate(takePageProblems)) ?? [];
      await engine.takeEngineProblems();
      expect(problems).toEqual(["console.error: a console error", expect.stringMatching(/^uncaught (Error: )?an uncaught error/)]);
      const width = await engine.evaluate(measureWidth);
      expect(width.scrollWidth).toBeGreaterThan(width.clientWidth);
      expect(width.outside).toEqual([expect.stringMatching(/^<div class=""> "" ends at 6\d\d px$/)]);
    });

    describe(`every page fits ${PHONE.width} px (no sideways scroll), before and after hydration`, () => {
      for (const page of PAGES) {
        test(page.path, async () => {
          let target = page.path;
          if (target === "an event's page") {
            await visit("/events");
            target = await engine.evaluate((selector: string) => document.querySelector(selector)?.getAttribute("href") ?? "", FIRST_EVENT);
            expect(target, "an event on the list").toMatch(/^\/events\/./);
          }
          await visit(target);
          if (typeof page.h1 === "string") expect(await engine.evaluate(headingText)).toBe(page.h1);
          else expect(await engine.evaluate(headingText)).toMatch(page.h1);
          for (const when of ["before hydration", "after hydration"]) {
            if (when === "after hydration") await hydrate(engine);
            const width = await engine.evaluate(measureWidth);
            // The premise: the engine's window is a phone's.
            expect(width.innerWidth, "the window's width").toBe(PHONE.width);
            expect(width.clientWidth, "the layout's width (no classic scrollbar)").toBe(PHONE.width);
            expect(
              width.scrollWidth,
              `${target} ${when}: the document is wider than the window; outside: ${width.outside.join("; ")}`,
            ).toBeLessThanOrEqual(width.clientWidth);
          }
        });
      }
    });

    test("before any interaction no script file loads; the first key press loads them and React hydrates", async () => {
      await visit("/");
      await engine.evaluate(settled);
      expect(await engine.evaluate(scriptFiles)).toEqual([]);
      expect(await engine.evaluate(isHydrated)).toBe(false);
      await engine.press("Tab");
      await waitFor(engine, "React hydrates after the first key press", isHydrated);
      expect((await engine.evaluate(scriptFiles)).length).toBeGreaterThan(0);
    });

    test("F8 as the very first key focuses the notification area, which keeps the focus once the toasts load", async () => {
      const focusIn = (label: string) =>
        document.activeElement?.closest("[aria-label^='Notifications']")?.getAttribute("aria-label") === label;
      await visit("/about");
      expect(await engine.evaluate(isHydrated)).toBe(false);
      await engine.press("F8");
      // The start script's placeholder area, or already React's toasts' own (which take the focus over).
      await waitFor(engine, "F8 focuses the notification area", focusIn, "Notifications (F8)");
      // The key started the scripts: React and then the toasts' own area arrive, and the focus stays.
      await waitFor(engine, "React hydrates after F8", isHydrated);
      await waitFor(engine, "the toasts' own area replaces the placeholder", () => document.getElementById("notifications") === null);
      await waitFor(engine, "the notification area keeps the focus", focusIn, "Notifications (F8)");
    });

    test("the menu button opens the drawer (first tap, before React, and again after); Escape closes it, focus back on the button", async () => {
      // Closed and slid out (it stays rendered, its backdrop over the page, while it slides: app.css).
      const closedWithFocusOnButton = (drawer: string, button: string) =>
        document.querySelector<HTMLDialogElement>(drawer)?.open === false &&
        document.getAnimations().every((a) => a.playState !== "running") &&
        document.activeElement === document.querySelector(button);

      await visit("/");
      expect(await engine.evaluate(isHydrated)).toBe(false);
      expect(await engine.evaluate((selector: string) => document.querySelector<HTMLDialogElement>(selector)?.open, DRAWER)).toBe(false);
      for (const when of ["before React", "after hydration"]) {
        await tap(engine, MENU_BUTTON);
        await waitFor(engine, `${when}: the drawer opens from the menu button`, drawerOpen, DRAWER);
        // The drawer's links are there to follow.
        expect(await engine.evaluate((selector: string) => document.querySelectorAll(`${selector} nav a[href]`).length, DRAWER)).toBe(5);
        await engine.press("Escape");
        await waitFor(
          engine,
          `${when}: Escape closes the drawer and the focus returns to the menu button`,
          closedWithFocusOnButton,
          DRAWER,
          MENU_BUTTON,
        );
        // The tap was the first interaction: it started the scripts.
        if (when === "before React") await waitFor(engine, "React hydrates after the first tap", isHydrated);
      }
    });

    // Firefox closes it itself (closedby="any"); WebKitGTK 2.50 has no closedby, and React's fallback does.
    test("a tap outside the open drawer closes it", async () => {
      await visit("/");
      await hydrate(engine);
      await tap(engine, MENU_BUTTON);
      await waitFor(engine, "the drawer opens", drawerOpen, DRAWER);
      const right = await engine.evaluate((selector: string) => document.querySelector(selector)!.getBoundingClientRect().right, DRAWER);
      // On the backdrop, halfway between the drawer's edge and the window's.
      await engine.clickAt(Math.round((right + PHONE.width) / 2), Math.round(PHONE.height / 2));
      await waitFor(
        engine,
        "the drawer closes",
        (selector: string) => document.querySelector<HTMLDialogElement>(selector)?.open === false,
        DRAWER,
      );
    });

    test("an in-site link, once React runs, navigates in the same document", async () => {
      await visit("/");
      await hydrate(engine);
      await engine.evaluate(markDocument);
      await tap(engine, 'footer a[href="/about"]');
      await waitFor(
        engine,
        "the footer's About Us link shows /about",
        () => location.pathname === "/about" && document.querySelector("h1")?.textContent?.trim() === "Run by founders, for founders",
      );
      expect(await engine.evaluate(isSameDocument), "React Router navigated (no new document)").toBe(true);
      await waitFor(engine, "the new page starts at the top", () => window.scrollY === 0);
    });

    test("the Past tab switches in place, before React and after it", async () => {
      const showing = (tab: string) => {
        const heading = document.querySelector<HTMLElement>(`#events-list-heading [data-tab-panel="${tab}"]`);
        const list = document.querySelector<HTMLElement>(`div[data-tab-panel="${tab}"]`);
        const current = document.querySelector(`a[data-tab="${tab}"]`)?.getAttribute("aria-current") === "page";
        const wanted = tab === "past" ? "?tab=past" : "";
        return (
          !!heading &&
          !heading.hidden &&
          !!list &&
          !list.hidden &&
          list.querySelector("article") !== null &&
          current &&
          location.search === wanted
        );
      };
      await visit("/events");
      await engine.evaluate(markDocument);
      await tap(engine, 'a[data-tab="past"]');
      await waitFor(engine, "before React: the Past list, heading, tab and address", showing, "past");
      // A tab is not an interaction that starts the scripts (it switches without them).
      expect(await engine.evaluate(isHydrated)).toBe(false);
      await hydrate(engine);
      await tap(engine, 'a[data-tab="upcoming"]');
      await waitFor(engine, "with React: the Upcoming list, heading, tab and address", showing, "upcoming");
      await tap(engine, 'a[data-tab="past"]');
      await waitFor(engine, "with React: the Past list again", showing, "past");
      expect(await engine.evaluate(isSameDocument), "every switch in the same document").toBe(true);
    });

    // Found here in WebKit first (a tap came between the Upcoming tab's address change and React's render
    // of it, and was taken for the tab already shown): app/events/event-tabs.tsx.
    test("a tap on a tab before React has rendered the previous tab's navigation is not lost", async () => {
      const pastShown = () =>
        location.search === "?tab=past" &&
        document.querySelector<HTMLElement>('div[data-tab-panel="past"]')?.hidden === false &&
        document.querySelector('a[data-tab="past"]')?.getAttribute("aria-current") === "page";
      /** Taps Past as soon as the address moves to Upcoming: after React Router's history push, before its render. */
      const tapPastOnceAddressMoves = () => {
        const push = history.pushState.bind(history);
        history.pushState = (...args: Parameters<History["pushState"]>) => {
          push(...args);
          history.pushState = push;
          setTimeout(() => document.querySelector<HTMLElement>('a[data-tab="past"]')?.click());
        };
      };
      /** Upcoming then Past at once, both before the first one's navigation starts; records the addresses pushed. */
      const tapBothAtOnce = () => {
        const pushed: string[] = [];
        (window as Window & { __pushed?: string[] }).__pushed = pushed;
        const push = history.pushState.bind(history);
        history.pushState = (...args: Parameters<History["pushState"]>) => {
          push(...args);
          pushed.push(location.search);
        };
        document.querySelector<HTMLElement>('a[data-tab="upcoming"]')?.click();
        document.querySelector<HTMLElement>('a[data-tab="past"]')?.click();
      };

      await visit("/events?tab=past");
      await hydrate(engine);
      await engine.evaluate(tapPastOnceAddressMoves);
      await tap(engine, 'a[data-tab="upcoming"]');
      await waitFor(engine, "the tap on Past right after the Upcoming address shows the Past tab", pastShown);

      await visit("/events?tab=past");
      await hydrate(engine);
      await engine.evaluate(tapBothAtOnce);
      // The last tap's navigation comes after the first one's, and the Past tab is what stays.
      await waitFor(engine, "Upcoming then Past, at once: the Past tab, after both navigations", () => {
        const pushed = (window as Window & { __pushed?: string[] }).__pushed ?? [];
        return (
          pushed.join(" ") === " ?tab=past" &&
          location.search === "?tab=past" &&
          document.querySelector<HTMLElement>('div[data-tab-panel="past"]')?.hidden === false
        );
      });
    });
  });
}
