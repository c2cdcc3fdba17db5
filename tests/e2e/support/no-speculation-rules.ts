/** Runs in every document before its scripts: the browser says it has no speculation rules (Firefox, Safari before 26.2). */
export function withoutSpeculationRules() {
  const supports = HTMLScriptElement.supports.bind(HTMLScriptElement);
  HTMLScriptElement.supports = (type: string) => type !== "speculationrules" && supports(type);
}
