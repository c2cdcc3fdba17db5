// The content check's problems as GitHub Actions shows them: an annotation on the file and line
// (on the commit and in a pull request's diff), and a table in the run's summary
// ($GITHUB_STEP_SUMMARY) naming file, entry, field and line (.github/workflows/content.yml).
import { formatProblem, type ContentProblem } from "./load.server";

// GitHub's workflow commands: data escapes %, CR and LF; a property also : and , .
const escapeData = (text: string) => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** One `::error` workflow command per problem. */
export function githubAnnotations(problems: readonly ContentProblem[]): string[] {
  return problems.map((problem) => {
    const properties = [`file=${escapeProperty(problem.file)}`, ...(problem.line ? [`line=${problem.line}`] : [])];
    properties.push(`title=${escapeProperty(problem.path ? `${problem.path}: ${problem.message}` : problem.message)}`);
    return `::error ${properties.join(",")}::${escapeData(formatProblem(problem))}`;
  });
}

// A table cell: no line breaks, no column breaks; code spans cannot hold a backtick.
const cell = (text: string) => text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
const code = (text: string) => (text ? `\`${cell(text).replace(/`/g, "'")}\`` : "(the whole file)");

/** The run summary, in Markdown. */
export function stepSummary(problems: readonly ContentProblem[], folder: string): string {
  if (problems.length === 0) return `### Content check: ${folder}/ is valid\n\nThe site will build with it.\n`;
  const rows = problems.map((p) => `| ${code(p.file)} | ${code(p.path)} | ${p.line ?? ""} | ${cell(p.message)} |`);
  return [
    `### Content check: ${problems.length === 1 ? "1 problem" : `${problems.length} problems`} in ${folder}/`,
    "",
    "The site will not build until each is fixed. How to read and fix them: docs/editing-content.md.",
    "",
    "| File | Entry and field | Line | Problem |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}
