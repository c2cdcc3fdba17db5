// Functions that run in the page (serialised by the engine's client: each is self-contained).

type ProblemWindow = Window & { __engineProblems?: string[] };

/**
 * Records the page's script problems in window.__engineProblems: uncaught errors and rejections,
 * console.error and console.warn, resources that failed to load, and CSP violations (a script the
 * policy blocks is an error in every engine, and only some say so on the console).
 */
export function installProblemCollector(): void {
  const win = window as ProblemWindow;
  if (win.__engineProblems) return;
  const problems: string[] = [];
  win.__engineProblems = problems;
  const text = (value: unknown) => (value instanceof Error ? `${value.name}: ${value.message}` : String(value));
  for (const level of ["error", "warn"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      problems.push(`console.${level}: ${args.map(text).join(" ")}`);
      original(...args);
    };
  }
  window.addEventListener(
    "error",
    (event: Event) => {
      if (event instanceof ErrorEvent) problems.push(`uncaught ${text(event.error ?? event.message)} (${event.filename}:${event.lineno})`);
      else {
        const target = event.target as Partial<HTMLScriptElement & HTMLLinkElement> | null;
        problems.push(`failed to load ${target?.src || target?.href || String(target)}`);
      }
    },
    true,
  );
  window.addEventListener("unhandledrejection", (event) => problems.push(`unhandled rejection: ${text(event.reason)}`));
  document.addEventListener("securitypolicyviolation", (event) =>
    problems.push(`CSP blocked ${event.blockedURI || "an inline script"} (${event.effectiveDirective})`),
  );
}

/** What the collector holds, which it then forgets; null if the document has none (a page loaded behind the suite's back). */
export function takePageProblems(): string[] | null {
  return (window as ProblemWindow).__engineProblems?.splice(0) ?? null;
}

/** React has hydrated the document: it attaches its fiber to hydrated nodes (as tests/e2e/fixtures.ts's isHydrated). */
export function isHydrated(): boolean {
  const main = document.getElementById("main");
  return main !== null && Object.keys(main).some((key) => key.startsWith("__reactFiber$"));
}

/** Script files the page has loaded so far (inline scripts are not resources). */
export function scriptFiles(): string[] {
  return performance
    .getEntriesByType("resource")
    .filter((entry) => (entry as PerformanceResourceTiming).initiatorType === "script" || /\.m?js(\?|$)/.test(entry.name))
    .map((entry) => entry.name);
}

/**
 * The document's width against the viewport's, and the outermost visible elements whose right edge
 * passes the viewport (the same judgement as tests/e2e/widths.spec.ts, without its clipping rules:
 * named only to say what overflows when the document does).
 */
export function measureWidth(): { scrollWidth: number; clientWidth: number; innerWidth: number; outside: string[] } {
  // The layout viewport: the window less a classic scrollbar, if the engine draws one.
  const viewport = document.documentElement.clientWidth;
  const outside: Element[] = [];
  for (const el of document.querySelectorAll("body *")) {
    const rect = el.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1 || rect.right <= viewport + 0.5) continue;
    if (outside.some((outer) => outer.contains(el))) continue;
    outside.push(el);
  }
  return {
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: viewport,
    innerWidth: window.innerWidth,
    outside: outside.slice(0, 5).map((el) => {
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `<${el.tagName.toLowerCase()} class="${(el.getAttribute("class") ?? "").slice(0, 60)}"> "${text}" ends at ${Math.round(el.getBoundingClientRect().right)} px`;
    }),
  };
}

/** The page's h1, as a visitor reads it. */
export function headingText(): string {
  return document.querySelector("h1")?.textContent?.trim() ?? "";
}

/** Marks the document, so a test can tell an in-place change from a new page (cf. tests/e2e/events.spec.ts). */
export function markDocument(): void {
  (window as Window & { __sameDocument?: boolean }).__sameDocument = true;
}

export function isSameDocument(): boolean {
  return (window as Window & { __sameDocument?: boolean }).__sameDocument === true;
}
