import type { Page } from "@playwright/test";

/** What a sighted keyboard user sees of the focused element. */
export type FocusStop = {
  /** Accessible-ish name: aria-label, else text, else tag. */
  name: string;
  tag: string;
  /** Inside the open modal dialog, if there is one. */
  inDialog: boolean;
  /** Has a box on screen. */
  visible: boolean;
  /** Its centre is not covered by another element (e.g. the sticky header). */
  obscured: boolean;
  /** Outline and box-shadow while focused. */
  focused: string;
  /** Outline and box-shadow once focus has moved on (null until it has). */
  unfocused: string | null;
  /** The indicator is an outline of at least 1 px or a box-shadow. */
  hasIndicator: boolean;
  /** Contrast of the indicator's colour with what is behind it (null if it cannot be told). */
  contrast: number | null;
};

/**
 * Presses Tab and reports the newly focused element. The report of the element focused before
 * is completed with its style once unfocused, so a test can assert that focus changed its look.
 */
export async function tabAndProbe(page: Page, key = "Tab"): Promise<{ current: FocusStop; previousUnfocused: string | null }> {
  await page.keyboard.press(key);
  return probeFocus(page);
}

/** Reports the focused element (see FocusStop); call after every focus move. */
export async function probeFocus(page: Page): Promise<{ current: FocusStop; previousUnfocused: string | null }> {
  return page.evaluate(async () => {
    // Transitions (e.g. Tailwind's transition-colors, which includes outline-color) must end first.
    const settle = (el: Element) => Promise.all(el.getAnimations().map((a) => a.finished.catch(() => undefined)));
    const look = (el: Element) => {
      const s = getComputedStyle(el);
      return `outline: ${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor} offset ${s.outlineOffset}; box-shadow: ${s.boxShadow}`;
    };

    // Any CSS colour to sRGB through a canvas, so oklab()/color-mix() values compare too.
    const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const rgba = (color: string): [number, number, number, number] => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = "#000";
      ctx.fillStyle = color;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255];
    };
    const luminance = ([r, g, b]: number[]) => {
      const f = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
    };
    /** The solid colour behind `from`: its own and its ancestors' backgrounds composited; null over an image. */
    const backdrop = (from: Element | null): number[] | null => {
      const layers: Array<[number, number, number, number]> = [];
      for (let el = from; el; el = el.parentElement) {
        const s = getComputedStyle(el);
        if (s.backgroundImage !== "none") return null;
        const c = rgba(s.backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      let out = [255, 255, 255];
      for (const [r, g, b, a] of layers.reverse()) out = [r * a + out[0]! * (1 - a), g * a + out[1]! * (1 - a), b * a + out[2]! * (1 - a)];
      return out;
    };

    const w = window as unknown as { __focusProbePrevious?: Element };
    const el = document.activeElement ?? document.body;
    const previous = w.__focusProbePrevious;
    let previousUnfocused: string | null = null;
    if (previous && previous !== el && previous.isConnected) {
      await settle(previous);
      previousUnfocused = look(previous);
    }
    await settle(el);
    w.__focusProbePrevious = el;

    const s = getComputedStyle(el);
    const outline = s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 1;
    const shadow = s.boxShadow !== "none";
    let contrast: number | null = null;
    const color = outline
      ? s.outlineColor
      : shadow
        ? /(rgba?\([^)]*\)|oklab\([^)]*\)|oklch\([^)]*\)|#[0-9a-f]+)/i.exec(s.boxShadow)?.[1]
        : undefined;
    // An outline drawn outside the box sits on the parent's background; one drawn inside, on the element's.
    const behind = backdrop(outline && parseFloat(s.outlineOffset) < 0 ? el : el.parentElement);
    if (color && behind) {
      const [r, g, b, a] = rgba(color);
      const mixed = [r * a + behind[0]! * (1 - a), g * a + behind[1]! * (1 - a), b * a + behind[2]! * (1 - a)];
      const [l1, l2] = [luminance(mixed), luminance(behind)].sort((x, y) => y - x);
      contrast = (l1! + 0.05) / (l2! + 0.05);
    }

    const box = el.getBoundingClientRect();
    const visible = box.width > 0 && box.height > 0;
    const hit = visible ? document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) : null;
    const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").replace(/\s+/g, " ").trim() || el.tagName.toLowerCase();
    const dialog = document.querySelector('[role="dialog"], dialog[open]');
    const current = {
      name,
      tag: el.tagName.toLowerCase(),
      inDialog: dialog !== null && dialog.contains(el),
      visible,
      obscured: visible && hit !== null && !el.contains(hit),
      focused: look(el),
      unfocused: null,
      hasIndicator: outline || shadow,
      contrast,
    };
    return { current, previousUnfocused };
  });
}

/** Forgets the element remembered by the last probe (e.g. after a navigation replaced it). */
export async function resetFocusProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    delete (window as unknown as { __focusProbePrevious?: Element }).__focusProbePrevious;
  });
}

/**
 * Tabs from the top of the page until focus comes back round (or `max` stops), returning every stop
 * with its focused and unfocused look.
 */
export async function tabThroughPage(page: Page, max = 150): Promise<FocusStop[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await resetFocusProbe(page);
  const stops: FocusStop[] = [];
  for (let i = 0; i < max; i++) {
    const { current, previousUnfocused } = await tabAndProbe(page);
    if (stops.length > 0) stops[stops.length - 1]!.unfocused = previousUnfocused;
    // Focus left the document (to the browser UI) or wrapped back to the first stop.
    if (current.tag === "body" || (stops.length > 0 && current.name === stops[0]!.name && current.tag === stops[0]!.tag)) break;
    stops.push(current);
  }
  return stops;
}

/** Why a stop fails the visible-focus rules, or null if it passes. */
export function focusProblem(stop: FocusStop): string | null {
  if (!stop.visible) return "focused but not on screen";
  if (stop.obscured) return "hidden behind another element";
  if (!stop.hasIndicator) return `no outline or box-shadow when focused (${stop.focused})`;
  if (stop.unfocused !== null && stop.unfocused === stop.focused) return `looks the same focused and unfocused (${stop.focused})`;
  // WCAG 1.4.11: the indicator needs 3:1 against what is next to it.
  if (stop.contrast !== null && stop.contrast < 3) return `indicator contrast ${stop.contrast.toFixed(2)}:1 is below 3:1 (${stop.focused})`;
  return null;
}

/** One line per stop that fails the visible-focus rules: its name, its tag and why. */
export function describeProblems(stops: FocusStop[]): string[] {
  return stops.flatMap((stop) => {
    const problem = focusProblem(stop);
    return problem ? [`"${stop.name}" <${stop.tag}>: ${problem}`] : [];
  });
}
