// @ts-check
// The tests' fake Google Calendar API and its calendar generator (TypeScript, loaded once with Vite's module runner), for the sections
// that read a calendar as Google sends it.
import { runnerImport } from "vite";

/** @typedef {typeof import("../../tests/fakes/google-calendar")} FakeModule */
/** @type {Promise<FakeModule> | undefined} */
let fakeModule;
const loadFake = () =>
  (fakeModule ??= runnerImport(new URL("../../tests/fakes/google-calendar.ts", import.meta.url).pathname, {
    configFile: false,
    logLevel: "silent",
  }).then(({ module }) => /** @type {FakeModule} */ (module)));

/** @param {{ now?: () => number }} [options] */
// The bench's servers run at the machine's clock, not the tests' (tests/support/clock.ts): so does its calendar.
export const startFake = async (options) => (await loadFake()).startFakeGoogleCalendar({ now: () => Date.now(), ...options });

/** `count` events as Google sends them, around `now`. @param {number} count @param {number} now */
export const generated = async (count, now) => (await loadFake()).generateGoogleEvents({ count, now });

/** A fake Google serving `count` generated events. @param {number} count */
export async function fakeWith(count) {
  const fake = await startFake();
  fake.setEvents(await generated(count, Date.now()));
  return fake;
}
