/**
 * JSON for a <script type="application/ld+json">: "<" escaped as \u003c, so no text in the data
 * (an event title, say) can close the element or open a comment. JSON.parse reads it back unchanged.
 */
export function jsonLdScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** schema.org FAQPage for questions answered on the page, in the page's own words. */
export function faqPageJsonLd(faq: ReadonlyArray<{ question: string; answer: string }>) {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: faq.map(({ question, answer }) => ({
      "@type": "Question",
      name: question,
      acceptedAnswer: { "@type": "Answer", text: answer },
    })),
  };
}
