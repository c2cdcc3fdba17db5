// @ts-check
// Debian's libfaketime, preloaded into a process to move its clock by a fixed offset (the tests' clock:
// tests/support/clock.ts, scripts/test-at.js; docs/decisions/test-clock.md). Nothing in the site uses it.
import { existsSync } from "node:fs";

/** Where Debian's package libfaketime (with faketime) keeps its library, by architecture. */
const LIBRARY_DIRS = ["/usr/lib/x86_64-linux-gnu/faketime", "/usr/lib/aarch64-linux-gnu/faketime", "/usr/lib/faketime"];

/**
 * libfaketime: FAKETIME_LIBRARY, or Debian's. Not its MT build, which serialises every clock reading of the
 * process behind one lock so that a clock run at another speed never goes back between threads: a fixed offset
 * needs none of that, and it made each Date.now() 50 times slower (3 µs against 0.06; this one: 0.09).
 */
export function faketimeLibrary() {
  const named = process.env.FAKETIME_LIBRARY;
  const candidates = named ? [named] : LIBRARY_DIRS.map((dir) => `${dir}/libfaketime.so.1`);
  const library = candidates.find((file) => existsSync(file));
  if (!library) {
    throw new Error(
      `libfaketime was not found (${candidates.join(", ")}): install Debian's faketime (apt-get install faketime; .ci/run does), or set FAKETIME_LIBRARY`,
    );
  }
  return library;
}

/**
 * The offset this process already runs at, in ms (0 outside libfaketime). A child's FAKETIME replaces its
 * parent's rather than adding to it, so a child's offset is counted from the real clock: this plus its own.
 */
export function inheritedOffsetMs() {
  const value = process.env.FAKETIME;
  if (value === undefined || value === "") return 0;
  const match = /^([+-]\d+(?:\.\d+)?)s?$/.exec(value.trim());
  if (!match) throw new Error(`FAKETIME="${value}": the tests only work with an offset in seconds, such as "+123.5s"`);
  return Number(match[1]) * 1000;
}

/**
 * The variables that run a process `offsetMs` ahead of this one's clock (behind when negative). Monotonic
 * clocks stay real, so timers, timeouts and measured durations run as usual.
 * @param {number} offsetMs
 * @returns {Record<string, string>}
 */
export function faketimeEnv(offsetMs) {
  const seconds = (inheritedOffsetMs() + offsetMs) / 1000;
  return {
    LD_PRELOAD: faketimeLibrary(),
    FAKETIME: `${seconds < 0 ? "-" : "+"}${Math.abs(seconds).toFixed(3)}s`,
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
  };
}

/**
 * The instant a moment names: ISO 8601 with its offset or Z, never a local time (which the machine's zone would decide).
 * @param {string} moment
 */
export function instantOf(moment) {
  const at = Date.parse(moment);
  if (Number.isNaN(at) || !/(Z|[+-]\d{2}:\d{2})$/.test(moment)) {
    throw new Error(`"${moment}" is not an instant: write it with its offset (2026-12-31T23:50:00-05:00) or Z`);
  }
  return at;
}
