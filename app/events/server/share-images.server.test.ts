import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "~/events/model";
import type { ShareCard } from "./share-card.server";
import { createShareImages, type Drawn, type ShareImagesOptions } from "./share-images.server";

const site = { name: "Founders Circle", shortName: "FC", host: "founders.example.org" };
const NOW = Date.parse("2026-06-01T12:00:00Z");
const DAY = 86_400_000;

function event(id: string, days: number, summary = `Event ${id}`): CalendarEvent {
  return {
    id,
    summary,
    start: { dateTime: new Date(NOW + days * DAY).toISOString() },
    end: { dateTime: new Date(NOW + days * DAY + 3_600_000).toISOString() },
  };
}

/** A drawer whose drawings finish when the test says, recording the order they were asked for. */
function heldDrawer() {
  const asked: string[] = [];
  const waiting: { title: string; finish: (error?: Error) => void }[] = [];
  const draw = (card: ShareCard) =>
    new Promise<Drawn>((resolve, reject) => {
      asked.push(card.title);
      waiting.push({
        title: card.title,
        finish: (error) => (error ? reject(error) : resolve({ png: Buffer.from(card.title), missing: [], ms: 1, pid: 1 })),
      });
    });
  /** Finishes the drawing in progress (there is at most one) and lets the queue move on. */
  const finishNext = async (error?: Error) => {
    await new Promise((resolve) => setImmediate(resolve));
    const next = waiting.shift();
    if (!next) throw new Error("nothing is drawing");
    next.finish(error);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { draw, asked, finishNext, drawing: () => waiting.length };
}

const silent = { debug: () => {}, warn: () => {}, error: () => {} };
const CARDS_AHEAD = 30;

/** The cards `drawer` draws, CARDS_AHEAD of them ahead within 32 MB, unless `options` says otherwise. */
const imagesOf = (drawer: { draw: ShareImagesOptions["draw"] }, options: Partial<ShareImagesOptions> = {}) =>
  createShareImages({ draw: drawer.draw, siteOf: () => site, log: silent, ahead: CARDS_AHEAD, maxBytes: 32 * 1024 * 1024, ...options });

describe("createShareImages", () => {
  it("draws the soonest upcoming events ahead, one at a time, and none already drawn or past", async () => {
    const drawer = heldDrawer();
    const images = imagesOf(drawer);
    const events = [event("past", -3), ...Array.from({ length: CARDS_AHEAD + 5 }, (_, i) => event(`e${i}`, i + 1))];
    images.drawAhead(events, NOW);
    expect(drawer.drawing()).toBe(1);
    for (let i = 0; i < CARDS_AHEAD; i++) await drawer.finishNext();
    await images.idle();
    expect(drawer.asked).toEqual(Array.from({ length: CARDS_AHEAD }, (_, i) => `Event e${i}`));
    // The same calendar read again draws nothing more, and the cards are there for requests.
    images.drawAhead(events, NOW);
    expect(drawer.drawing()).toBe(0);
    expect((await images.imageFor(events[1]!)).toString()).toBe("Event e0");
    expect(drawer.asked).toHaveLength(CARDS_AHEAD);
  });

  it("draws nothing ahead when told to draw none (SHARE_CARDS_AHEAD=0), and a requested card all the same", async () => {
    const drawer = heldDrawer();
    const images = imagesOf(drawer, { ahead: 0 });
    images.drawAhead([event("a", 1), event("b", 2)], NOW);
    expect(drawer.drawing()).toBe(0);
    const card = images.imageFor(event("a", 1));
    await drawer.finishNext();
    expect((await card).toString()).toBe("Event a");
  });

  it("draws a card a request waits for before the ones queued ahead, and once for concurrent requests", async () => {
    const drawer = heldDrawer();
    const images = imagesOf(drawer);
    images.drawAhead([event("a", 1), event("b", 2), event("c", 3)], NOW);
    const past = event("old", -10);
    const requests = [images.imageFor(past), images.imageFor(past)];
    await drawer.finishNext(); // "a" was already drawing
    await drawer.finishNext(); // then the request's card, before "b" and "c"
    const [first, second] = await Promise.all(requests);
    expect(first!.toString()).toBe("Event old");
    expect(second).toBe(first);
    await drawer.finishNext();
    await drawer.finishNext();
    await images.idle();
    expect(drawer.asked).toEqual(["Event a", "Event old", "Event b", "Event c"]);
  });

  it("answers a failed drawing with its error, keeps nothing, and tries again on the next request", async () => {
    const drawer = heldDrawer();
    const images = imagesOf(drawer);
    const failed = images.imageFor(event("x", 1)).catch((error: unknown) => error);
    await drawer.finishNext(new Error("worker stopped"));
    expect(await failed).toEqual(new Error("worker stopped"));
    const again = images.imageFor(event("x", 1));
    await drawer.finishNext();
    expect((await again).toString()).toBe("Event x");
  });
});
