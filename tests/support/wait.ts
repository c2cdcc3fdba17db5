// The one way the tests' own code waits for a condition where expect.poll cannot run (a server up, a log line
// written, a worker gone: hooks such as beforeAll, helpers, setups, Playwright's fixtures, the engines' WebDriver
// tests): it asks `check` again every `everyMs` until it gives a value (anything but undefined or false), within
// `timeoutMs`. A check may throw to give up at once (a process that exited). A test itself waits with expect.poll
// (vitest's or Playwright's: an assertion that a value comes to be what it should); vitest's vi.waitUntil and
// vi.waitFor are not used, and ESLint holds test files to this (eslint.config.js).
export type WaitOptions = {
  /** How long a broken run takes to fail: never a wait in itself. */
  timeoutMs: number;
  /** Past the limit, the error's message (given the last value seen); without one the wait resolves undefined, and the assertion after it says what is wrong. */
  message?: string | ((last: unknown) => string);
  everyMs?: number;
};

type Given<T> = Exclude<Awaited<T>, undefined | false>;

export async function waitUntil<T>(check: () => T, options: WaitOptions & { message: WaitOptions["message"] & {} }): Promise<Given<T>>;
export async function waitUntil<T>(check: () => T, options: WaitOptions): Promise<Given<T> | undefined>;
export async function waitUntil<T>(check: () => T, { timeoutMs, message, everyMs = 50 }: WaitOptions): Promise<Given<T> | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await check();
    if (last !== undefined && last !== false) return last as Given<T>;
    if (Date.now() > deadline) {
      if (message === undefined) return undefined;
      throw new Error(typeof message === "function" ? message(last) : message);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
