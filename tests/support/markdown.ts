// The repository's Markdown as GitHub shows it: its headings' anchors, and the code a heading's section gives, so
// the tests check the links a document makes and run the snippets it gives (tests/unit/docs.test.ts, the nginx and
// Prometheus configurations in tests/support) as a reader finds them.
import { readFileSync } from "node:fs";

/** A document of the repository, by its path from the repository's root. */
export const readDocument = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");

type Heading = { level: number; anchor: string; line: number };

/** GitHub's anchor of a heading's text: lower case, punctuation dropped, spaces as hyphens. */
export const slugOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The document's headings, code blocks aside, each with its anchor (a repeated one gets -1, -2, …). */
function headingsOf(markdown: string): Heading[] {
  const seen = new Map<string, number>();
  const headings: Heading[] = [];
  let fenced = false;
  markdown.split("\n").forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^(#{1,6})\s+(.*)$/.exec(line);
    if (!heading) return;
    const slug = slugOf(heading[2] ?? "");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    headings.push({ level: heading[1]!.length, anchor: count === 0 ? slug : `${slug}-${count}`, line: index });
  });
  return headings;
}

/** The anchors a document's headings have. */
export const anchorsOf = (markdown: string): Set<string> => new Set(headingsOf(markdown).map(({ anchor }) => anchor));

/** The code of the first ```language block in the section under the heading anchored `anchor`; undefined when there is none. */
export function codeBlockUnder(markdown: string, anchor: string, language: string): string | undefined {
  const headings = headingsOf(markdown);
  const at = headings.findIndex((heading) => heading.anchor === anchor);
  if (at === -1) return undefined;
  const end = headings.slice(at + 1).find((heading) => heading.level <= headings[at]!.level)?.line;
  const section = markdown.split("\n").slice(headings[at]!.line + 1, end);
  const start = section.findIndex((line) => line.trim() === `\`\`\`${language}`);
  if (start === -1) return undefined;
  const length = section.slice(start + 1).findIndex((line) => /^\s*```\s*$/.test(line));
  return length === -1 ? undefined : section.slice(start + 1, start + 1 + length).join("\n");
}
