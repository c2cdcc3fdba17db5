// The production server reading an iCalendar fixture over HTTP on loopback (tests/fakes/ics-feed.ts),
// for browser tests that need a calendar other than the bundled sample.
import { startFakeIcsFeed, type FakeIcsFeed } from "../../fakes/ics-feed";
import { icsSource } from "../../support/environments";
import { startServer, type RunningServer } from "../../support/start-server";

export type IcsBackedServer = { feed: FakeIcsFeed; server: RunningServer };

export async function startIcsBackedServer(fixture: string): Promise<IcsBackedServer> {
  const feed = await startFakeIcsFeed([fixture]);
  const server = await startServer(icsSource(feed.urlOf(fixture)));
  return { feed, server };
}

export async function stopIcsBackedServer({ feed, server }: Partial<IcsBackedServer>): Promise<void> {
  await server?.stop();
  await feed?.close();
}

/** The awkward calendar: titles and places that are one long word or a URL, and titles in many scripts and emoji. */
export const AWKWARD_CALENDAR = "awkward-events.ics";
