// The pages' speculation rules (app/lib/speculation-rules.ts) as Chromium reads them.

/** Runs in the page: every link's href, and whether the page's rules name it (Chromium's URLPattern, the rules' selector). */
export function linksTheRulesName(): { href: string; tab: boolean; named: boolean }[] {
  const script = document.querySelector('script[type="speculationrules"]');
  const rules = JSON.parse(script?.textContent ?? "{}") as Record<
    string,
    { where: { and: [{ href_matches: string[] }, { not: { selector_matches: string } }] } }[]
  >;
  const rule = rules.prerender?.[0];
  if (!rule) throw new Error("no prerender rule");
  const [{ href_matches: patterns }, { not: exclusion }] = rule.where.and;
  const URLPatternClass = (window as unknown as { URLPattern: new (input: string, base: string) => { test(url: string): boolean } })
    .URLPattern;
  return [...document.querySelectorAll<HTMLAnchorElement>("a[href]")].map((link) => ({
    href: link.getAttribute("href") ?? "",
    tab: link.hasAttribute("data-tab"),
    named:
      patterns.some((pattern) => new URLPatternClass(pattern, document.baseURI).test(link.href)) &&
      !link.matches(exclusion.selector_matches),
  }));
}

/** Our pages' paths, as links give them: the rules name these and nothing else. */
export const PAGE_PATHS = /^\/(apply|about|contact|portal|events(\?.*)?|events\/[^/?#]+|events\/month\/[^/?#]+(\/\d+)?)?$/;
