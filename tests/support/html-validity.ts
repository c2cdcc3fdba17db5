import { HtmlValidate, Rule, type ConfigData, type DOMReadyEvent, type Plugin, type Report } from "html-validate";

// The HTML check of every page's server HTML (tests/integration/html-validity.test.ts), with
// html-validate. Two errors the W3C Nu checker found (issue 11) are outside html-validate's own
// rules, so they are added here as the project's rules.

/** HTML §4.4.9: a <div> that groups a <dl>'s items holds only dt, dd and script-supporting elements. */
class DlGroupContent extends Rule {
  public setup(): void {
    this.on("dom:ready", (event: DOMReadyEvent) => {
      for (const group of event.document.querySelectorAll("dl > div")) {
        for (const child of group.childElements) {
          if (["dt", "dd", "script", "template"].includes(child.tagName)) continue;
          this.report(child, `<${child.tagName}> is not allowed in a <div> inside a <dl>: only <dt> and <dd> are`);
        }
      }
    });
  }
}

/** HTML (the command attribute): a button with a command must not have aria-expanded. */
class NoAriaExpandedOnCommand extends Rule {
  public setup(): void {
    this.on("dom:ready", (event: DOMReadyEvent) => {
      for (const button of event.document.querySelectorAll("button[command][aria-expanded]")) {
        this.report(button, "aria-expanded must not be specified on a button with a command attribute");
      }
    });
  }
}

/**
 * The page's <h1> is its first heading in document order (pa11y G141, issue 20): a heading
 * before it (the closed drawer's, say) is what a screen reader's heading list starts with.
 */
type Element = DOMReadyEvent["document"]["root"];

/** The first h1–h6 or role="heading" element in document order (depth first). */
function firstHeading(elements: Element[]): Element | undefined {
  for (const element of elements) {
    if (/^h[1-6]$/.test(element.tagName) || element.getAttribute("role")?.value === "heading") return element;
    const inside = firstHeading(element.childElements);
    if (inside) return inside;
  }
  return undefined;
}

class H1FirstHeading extends Rule {
  public setup(): void {
    this.on("dom:ready", (event: DOMReadyEvent) => {
      const first = firstHeading(event.document.root.childElements);
      if (first && first.tagName !== "h1") this.report(first, `the first heading is <${first.tagName}>, before the page's <h1>`);
    });
  }
}

const plugin: Plugin = {
  name: "site",
  // Keys are the names the configuration uses.
  rules: {
    "site/dl-group-content": DlGroupContent,
    "site/no-aria-expanded-on-command": NoAriaExpandedOnCommand,
    "site/h1-first-heading": H1FirstHeading,
  },
};

export const htmlValidityConfig: ConfigData = {
  extends: ["html-validate:recommended"],
  plugins: [plugin],
  rules: {
    "site/dl-group-content": "error",
    "site/no-aria-expanded-on-command": "error",
    "site/h1-first-heading": "error",

    // The CSP has no 'unsafe-inline' for styles: neither a style attribute nor a <style> element
    // may reach the server HTML (no-inline-style is in the preset; named here for that reason).
    "no-inline-style": "error",
    "no-style-tag": "error",

    // Style only, with two writers in one page and both forms valid HTML: React self-closes void
    // elements (<meta />) where the events' sanitized descriptions have <br>; React writes
    // required="" and download="" where its streaming runtime writes a bare hidden (<div hidden id="S:0">).
    "void-style": "off",
    "attribute-boolean-style": "off",
    "attribute-empty-style": "off",
    // Ids only as strict as the standard (no spaces, not empty): React writes its own, such as
    // "_R_" (useId) and "B:0" (a streamed Suspense boundary).
    "valid-id": ["error", { relaxed: true }],
    // Attribute names are case-insensitive in HTML; React writes the DOM's spelling (charSet,
    // srcSet, dateTime, autoComplete).
    "attr-case": "off",
    // The site's one navigation is in the HTML three times, labelled "Main" each time: inline
    // (1024 px and up), in the drawer (below), and in <noscript>. Only one of them is ever shown,
    // which axe's landmark-unique (tests/e2e/a11y.spec.ts) checks in the browser.
    "unique-landmark": "off",
  },
};

const validator = new HtmlValidate(htmlValidityConfig);

export function validateHtml(html: string, filename = "inline"): Promise<Report> {
  return validator.validateString(html, filename);
}

/** One line per message: "rule (severity 2) at line:column in <selector>: message". */
export function describeReport(report: Report): string[] {
  return report.results.flatMap((result) =>
    result.messages.map((m) => `${m.ruleId} (severity ${m.severity}) at ${m.line}:${m.column} in ${m.selector ?? "?"}: ${m.message}`),
  );
}
