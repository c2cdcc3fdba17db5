// The production server reading a fake Google Calendar over HTTP on loopback, for browser tests
// that need a calendar other than the bundled sample (the suite's own server shows that one).
import { startFakeGoogleCalendar, type FakeGoogleCalendar, type GoogleScenario } from "../../fakes/google-calendar";
import { startServer, type RunningServer } from "../../support/start-server";

export type GoogleBackedServer = { fake: FakeGoogleCalendar; server: RunningServer };

/** `env`: the server's own variables besides the fake's (e.g. a short EVENTS_CACHE_TTL_SECONDS). */
export async function startGoogleBackedServer(
  scenario: GoogleScenario,
  { env = {} }: { env?: Record<string, string> } = {},
): Promise<GoogleBackedServer> {
  const fake = await startFakeGoogleCalendar();
  fake.setScenario(scenario);
  const server = await startServer({ ...fake.env, ...env });
  return { fake, server };
}

export async function stopGoogleBackedServer({ fake, server }: Partial<GoogleBackedServer>): Promise<void> {
  await server?.stop();
  await fake?.close();
}
