import type { Page } from "@playwright/test";

// Issue 11: every page at every width a visitor uses, from the smallest phone to a laptop, without a sideways scroll
// or a cut-off control. A page is loaded once and resized through the widths (the layout is CSS only, so a resize
// shows what a fresh load at that width shows).
export const WIDTHS = [320, 360, 375, 414, 600, 768, 800, 834, 1024, 1280, 1440] as const;
/** The window height of every sweep. */
export const HEIGHT = 900;

type Overflow = { width: number; problem: string };

/**
 * Runs in the page: the document's width beyond the viewport, and every visible element of the header, main and
 * footer (and the drawer, which lives in the header) whose right edge passes the viewport's. Elements inside a box
 * that clips (overflow other than visible) are judged by that box. No frame is waited for: the page has its new size
 * once setViewportSize returns, the first read of a box lays it out at that size, and nothing but the drawer moves
 * by transition (its sweep waits for the drawer's end position). Waiting two frames a width was a third of the sweep.
 */
function measureOverflow(): { documentWidth: number; viewport: number; outside: string[] } {
  const viewport = document.documentElement.clientWidth;
  const outside: string[] = [];
  const reported: Element[] = [];
  const clips = (el: Element) => getComputedStyle(el).overflowX !== "visible";
  const describe = (el: Element) => {
    const id = el.id ? `#${el.id}` : "";
    const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `<${el.tagName.toLowerCase()}${id} class="${(el.getAttribute("class") ?? "").slice(0, 60)}"> "${text}"`;
  };
  for (const root of document.querySelectorAll("header, main, footer")) {
    for (const el of [root, ...root.querySelectorAll("*")]) {
      const rect = el.getBoundingClientRect();
      // Not rendered, or a 1 px visually hidden label (sr-only).
      if (rect.width <= 1 || rect.height <= 1) continue;
      if (rect.right <= viewport + 0.5) continue;
      // The outermost element that passes the edge names the cause; its children follow it out.
      if (reported.some((outer) => outer.contains(el))) continue;
      let clipped = false;
      for (let parent = el.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (clips(parent) && parent.getBoundingClientRect().right <= viewport + 0.5) {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      reported.push(el);
      outside.push(`${describe(el)} ends at ${Math.round(rect.right)} px`);
    }
  }
  return { documentWidth: document.documentElement.scrollWidth, viewport, outside };
}

/** Resizes the page through `widths` (its height 900 px), running `before` at each, and says what passes the edge where. */
export async function sweep(page: Page, widths: readonly number[], before?: () => Promise<void>): Promise<Overflow[]> {
  const found: Overflow[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: HEIGHT });
    await before?.();
    const { documentWidth, viewport, outside } = await page.evaluate(measureOverflow);
    if (documentWidth > viewport) found.push({ width, problem: `the document is ${documentWidth} px wide in a ${viewport} px viewport` });
    for (const problem of outside.slice(0, 5)) found.push({ width, problem });
  }
  return found;
}

/** One line per problem, its width first. */
export const report = (found: Overflow[]) => found.map((f) => `${f.width} px: ${f.problem}`);
