import { describe, expect, it } from "vitest";
import type { ContentProblem } from "./load.server";
import { githubAnnotations, stepSummary } from "./report.server";

const problems: ContentProblem[] = [
  { file: "content/founders.yaml", path: "founders[2].name", line: 23, message: "required" },
  { file: "content/site.yaml", path: "", line: 4, message: "not valid YAML: Nested mappings are not allowed in compact mappings" },
  { file: "content/about.yaml", path: "values[0].title", message: "must be 100% | odd, really:\nyes" },
];

describe("the content check's report for GitHub Actions", () => {
  it("annotates each problem on its file and line, escaping GitHub's command syntax", () => {
    expect(githubAnnotations(problems)).toEqual([
      "::error file=content/founders.yaml,line=23,title=founders[2].name%3A required::content/founders.yaml: founders[2].name: required (line 23)",
      "::error file=content/site.yaml,line=4,title=not valid YAML%3A Nested mappings are not allowed in compact mappings::content/site.yaml: not valid YAML: Nested mappings are not allowed in compact mappings (line 4)",
      "::error file=content/about.yaml,title=values[0].title%3A must be 100%25 | odd%2C really%3A%0Ayes::content/about.yaml: values[0].title: must be 100%25 | odd, really:%0Ayes",
    ]);
  });

  it("lists file, entry and field, line and problem in the run summary", () => {
    expect(stepSummary(problems, "content")).toBe(
      [
        "### Content check: 3 problems in content/",
        "",
        "The site will not build until each is fixed. How to read and fix them: docs/editing-content.md.",
        "",
        "| File | Entry and field | Line | Problem |",
        "| --- | --- | --- | --- |",
        "| `content/founders.yaml` | `founders[2].name` | 23 | required |",
        "| `content/site.yaml` | (the whole file) | 4 | not valid YAML: Nested mappings are not allowed in compact mappings |",
        "| `content/about.yaml` | `values[0].title` |  | must be 100% \\| odd, really: yes |",
        "",
      ].join("\n"),
    );
    expect(stepSummary([], "content")).toBe("### Content check: content/ is valid\n\nThe site will build with it.\n");
  });
});
