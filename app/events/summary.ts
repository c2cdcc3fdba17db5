/** The first `max` characters of a text on one line, cut at a word, for meta descriptions. */
export function summaryOf(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  // Never half of a character written as two UTF-16 units (an emoji): that half is not text.
  const cut = line.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, "");
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, "")}…`;
}
