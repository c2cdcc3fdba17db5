import { expect } from "@playwright/test";

/** Waits until a server has read its calendar: a first read of a large one may outlast the page's own wait (it then goes out loading). */
export async function calendarRead(origin: string): Promise<void> {
  const state = async () => ((await (await fetch(`${origin}/readyz`)).json()) as { events?: { state?: string } }).events?.state;
  await expect.poll(state, { timeout: 60_000 }).toBe("fresh");
}
