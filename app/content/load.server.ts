// Reads content/*.yaml, validates every file against app/content/schema.ts and checks that every
// photo named is a readable image. Used by the build (app/content/plugin.server.ts), by
// `npm run content:check` and by the tests; never by the running site, which gets the result
// compiled in.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { isSeq, LineCounter, parseDocument, type Document } from "yaml";
import { PHOTO_FORMAT_NAMES } from "./photo-formats";
import { operatorWording, pathLabel } from "./problem-wording";
import { checkPhoto } from "./photo.server";
import { contentFiles, type RawContent } from "./schema";

export type ContentProblem = {
  /** As the operator sees it, e.g. "content/founders.yaml". */
  file: string;
  /** The entry and field, e.g. "founders[2].name"; empty for a problem with the whole file. */
  path: string;
  /** 1-based line in the file, when the YAML library can tell. */
  line?: number;
  message: string;
};

export type LoadedContent = { content?: RawContent; problems: ContentProblem[] };

/** "content/founders.yaml: founders[2].name: required (line 14)" */
export function formatProblem(problem: ContentProblem): string {
  const field = problem.path ? `${problem.path}: ` : "";
  return `${problem.file}: ${field}${problem.message}${problem.line ? ` (line ${problem.line})` : ""}`;
}

type FileKey = keyof typeof contentFiles;

/** Where a path points in a parsed file: the deepest existing node's line. */
function lineOf(doc: Document, lines: LineCounter, segments: PropertyKey[]): number | undefined {
  for (let end = segments.length; end >= 0; end--) {
    const node = doc.getIn(segments.slice(0, end) as unknown[], true) as { range?: [number, number, number] } | undefined;
    const offset = node?.range?.[0];
    if (offset !== undefined) return lines.linePos(offset).line;
  }
  return undefined;
}

type ParsedFile = { data: unknown; locate: (segments: PropertyKey[]) => number | undefined };

function parseFile(dir: string, key: FileKey, problems: ContentProblem[]): ParsedFile | undefined {
  const spec = contentFiles[key];
  const file = `${path.basename(dir)}/${spec.file}`;
  const fullPath = path.join(dir, spec.file);
  if (!existsSync(fullPath)) {
    problems.push({ file, path: "", message: "file is missing" });
    return undefined;
  }
  const lines = new LineCounter();
  const doc = parseDocument(readFileSync(fullPath, "utf8"), { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      problems.push({ file, path: "", line: lines.linePos(error.pos[0]).line, message: `not valid YAML: ${error.message.split("\n")[0]}` });
    }
    return undefined;
  }
  let data = doc.toJS() as unknown;
  // A list file may be a bare list ("- name: …") or have its key ("founders:"): both read the same.
  const listKey = "list" in spec ? spec.list : undefined;
  const bare = listKey !== undefined && isSeq(doc.contents);
  if (bare) data = { [listKey]: data };
  const locate = (segments: PropertyKey[]) => lineOf(doc, lines, bare ? segments.slice(1) : segments);

  const result = spec.schema.safeParse(data, { error: operatorWording });
  if (result.success) return { data: result.data, locate };
  for (const issue of result.error.issues) {
    const segments = [...issue.path];
    if (issue.code === "unrecognized_keys") {
      // One line per unknown key, at that key, so a typo is easy to find.
      for (const unknownKey of issue.keys) {
        const at = [...segments, unknownKey];
        problems.push({ file, path: pathLabel(at), line: locate(at), message: "is not a field this file has (check the spelling)" });
      }
      continue;
    }
    problems.push({ file, path: pathLabel(segments), line: locate(segments), message: issue.message });
  }
  return undefined;
}

/** Every person with a photo: the photo must exist under content/ and be an image the build can read. */
async function checkPhotos(dir: string, key: "founders" | "board", parsed: ParsedFile, people: Array<{ photo?: string }>): Promise<ContentProblem[]> {
  const file = `${path.basename(dir)}/${contentFiles[key].file}`;
  const problems: ContentProblem[] = [];
  await Promise.all(
    people.map(async (person, index) => {
      if (!person.photo) return;
      const at = [key, index, "photo"];
      const shown = `${path.basename(dir)}/${person.photo}`;
      const fullPath = path.join(dir, person.photo);
      const problem = (message: string) => problems.push({ file, path: pathLabel(at), line: parsed.locate(at), message });
      if (!existsSync(fullPath)) return problem(`${shown} does not exist (file names are case-sensitive)`);
      try {
        await checkPhoto(readFileSync(fullPath));
      } catch {
        problem(`${shown} cannot be read as a ${PHOTO_FORMAT_NAMES} image`);
      }
    }),
  );
  return problems;
}

/** Loads and checks the content folder; `content` is set only when there are no problems. */
export async function loadContent(dir: string): Promise<LoadedContent> {
  const problems: ContentProblem[] = [];
  const parsed = Object.fromEntries(
    (Object.keys(contentFiles) as FileKey[]).map((key) => [key, parseFile(dir, key, problems)]),
  ) as Record<FileKey, ParsedFile | undefined>;

  const data = (key: FileKey) => parsed[key]?.data as Record<string, unknown> | undefined;
  for (const key of ["founders", "board"] as const) {
    const file = parsed[key];
    const people = data(key)?.[key] as Array<{ photo?: string }> | undefined;
    if (file && people) problems.push(...(await checkPhotos(dir, key, file, people)));
  }
  if (problems.length > 0) return { problems };

  const content = {
    site: data("site"),
    home: data("home"),
    founders: data("founders")?.founders,
    board: data("board")?.board,
    benefits: data("benefits")?.benefits,
    steps: data("steps")?.steps,
    about: data("about"),
    portal: data("portal"),
    apply: data("apply"),
    contact: data("contact"),
    events: data("events"),
  } as RawContent;
  return { content, problems };
}

// Only the message is the error's own text, so a build log prints the list and nothing else.
export class ContentError extends Error {
  constructor(problems: ContentProblem[]) {
    super(`The site's content has ${problems.length === 1 ? "a problem" : `${problems.length} problems`}:\n  ${problems.map(formatProblem).join("\n  ")}\nSee docs/editing-content.md.`);
  }
}

ContentError.prototype.name = "ContentError";

/** The content, or a ContentError listing every problem. */
export async function loadValidContent(dir: string): Promise<RawContent> {
  const { content, problems } = await loadContent(dir);
  if (!content) throw new ContentError(problems);
  return content;
}
