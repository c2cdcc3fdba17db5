// The documents hold to the code: every environment variable, npm script, metric and site path that
// README.md or docs/**/*.md names exists. How a document names each (Markdown's backticks):
//   variable  `NAME` or `NAME=value` in upper case (also `NAME=` in a code block, and the first cell of a
//             table whose first column is "Variable"). A `NAME=` or a table's name must be a variable; a bare
//             `NAME` may also be a constant declared in the code, a Dockerfile word or an iCalendar name.
//   script    npm run NAME, npm test, npm start (anywhere, code blocks too).
//   metric    `name`, `name{label,…}` or `name{label="value"}`: snake case starting as a registered metric does
//             (calendar_, stored_answers_, …; nodejs_ and process_ for prom-client's own).
//   path      `/path` (and the site's example addresses, https://founders.example.org/…): a route of
//             app/site-routes.ts or a path the server answers itself (server/, app/), a file of public/, a
//             page's redirect or React Router data URL. Paths on a machine (`/usr/…`, `/app/.data`) are not site paths.
//   link      [text](path#anchor) to a file of the repository: the file exists, and so does the anchor's heading.
//   code name `camelCase`, `PascalCase` or `name()`: a word of the code (app, server, scripts, tests), so a function,
//             type or option a document names has not been renamed or removed.
//   file      `dir/file.ext` under one of the repository's folders (app/, server/, tests/, …): it exists; a bare
//             `file.ts` (`.tsx`, `.js`, `.mjs`): a file of that name exists in the code.
// Every default docs/operating.md's variable tables give is the one app/env.server.ts parses to (`value`, or
// "unset…" when the schema has none), and every Cache-Control docs/deploying.md's CDN table gives is one server/
// sends. And the other way: every document the code (comments, messages, the Dockerfile, CI and ops files) names
// exists with the anchor it names: README.md or docs/….md, #anchor optional, or a README section by its heading in
// quotes (README "Deploy").
// A failure names the document (or file), the line and the name.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envSchema, parseEnv } from "~/env.server";
import { siteRoutes } from "~/site-routes";
import { createMetrics } from "../../server/metrics";
import { anchorsOf, slugOf } from "../support/markdown";

// ---- What the code has ----

const read = (file: string) => readFileSync(file, "utf8");
const filesUnder = (dir: string, test: (file: string) => boolean) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((file) => path.join(dir, file))
    .filter(test);
const sourceFile = (file: string) => /\.(ts|tsx|js|mjs)$/.test(file) && !file.includes("node_modules");
const matchesOf = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match[1] ?? "");

/** Read by name through a helper, not as process.env.NAME: each with the file that reads it (which must name it). */
const READ_BY_NAME: Record<string, string> = {
  BENCH_ONLY: "scripts/bench/config.js",
  BENCH_SKIP: "scripts/bench/config.js",
  BENCH_ROUTES: "scripts/bench/config.js",
  BENCH_RUNS: "scripts/bench/config.js",
  BENCH_DURATION: "scripts/bench/config.js",
  BENCH_CONNECTIONS: "scripts/bench/config.js",
  FUZZ_SEED: "tests/support/prng.ts",
  PROMETHEUS_PATH: "tests/support/prometheus.ts",
  PROMTOOL_PATH: "tests/support/prometheus.ts",
  // libfaketime's own variables, which the tests' clock sets for the servers it starts.
  LD_PRELOAD: "scripts/faketime.js",
  FAKETIME_DONT_FAKE_MONOTONIC: "scripts/faketime.js",
  // The machine's zone, which Node reads: CI sets it for npm test, the moments sweep for its servers.
  TZ: ".ci/run",
};

/** The site's settings (the schema's keys), and what the process entry, scripts, tests and CI read or pass the build. */
function codeVariables(): Set<string> {
  const tooling = [
    "server.js",
    "playwright.config.ts",
    "vitest.config.ts",
    "vite.config.ts",
    ...filesUnder("scripts", sourceFile),
    ...filesUnder("tests", sourceFile),
  ].flatMap((file) => matchesOf(read(file), /process\.env(?:\.|\[["'`])([A-Z][A-Z0-9_]*)/g));
  const ci = matchesOf(read(".ci/run"), /\$\{?([A-Z][A-Z0-9_]*)/g);
  const buildArguments = matchesOf(read("Dockerfile"), /^ARG\s+([A-Z][A-Z0-9_]*)/gm);
  const byName = Object.entries(READ_BY_NAME)
    .filter(([name, file]) => read(file).includes(name))
    .map(([name]) => name);
  return new Set([...Object.keys(envSchema.in.shape), ...tooling, ...ci, ...buildArguments, ...byName]);
}

/** Upper-case constants declared in the code (a document may name MAX_STALE_MS as what it is). */
function codeConstants(): Set<string> {
  const files = ["server.js", ...["app", "server", "scripts", "tests"].flatMap((dir) => filesUnder(dir, sourceFile))];
  return new Set(files.flatMap((file) => matchesOf(read(file), /\b(?:const|let|var)\s+([A-Z][A-Z0-9_]*)\b/g)));
}

/** The code's files, and all their text: the words a document may name (functions, types, options). */
function codeFiles(): { names: Set<string>; words: Set<string> } {
  // Not this test's own words (its examples of names that do not exist).
  const files = ["server.js", ...["app", "server", "scripts", "tests"].flatMap((dir) => filesUnder(dir, sourceFile))].filter(
    (file) => file !== path.join("tests", "unit", "docs.test.ts"),
  );
  const words = new Set(files.flatMap((file) => read(file).match(/\b[A-Za-z_$][\w$]*\b/g) ?? []));
  return { names: new Set(files.map((file) => path.basename(file))), words };
}

/** The repository's own folders: a document's `folder/…/file` under one of them names a file of the repository. */
const REPOSITORY_FOLDERS = new Set(["app", "server", "scripts", "tests", "docs", "content", "public", "ops", ".github", ".ci"]);

/** The Dockerfile's instructions (HEALTHCHECK, …). */
const dockerfileWords = () => new Set(matchesOf(read("Dockerfile"), /^([A-Z]+)\s/gm));

/** iCalendar's own names (RFC 5545), which the documents use to say what feeds carry. */
const ICALENDAR = new Set(
  "VCALENDAR VEVENT VTIMEZONE DTSTART DTEND DTSTAMP DURATION RRULE RDATE EXDATE UID SUMMARY DESCRIPTION LOCATION TZID VALUE FREQ COUNT INTERVAL UNTIL BYDAY".split(
    " ",
  ),
);

/** Every metric the server registers, with its labels: the real registry, whose sources are never read (nothing is scraped). */
function codeMetrics(): Map<string, string[]> {
  const notRead = (): never => {
    throw new Error("not read: the metrics are only listed");
  };
  const { registry } = createMetrics({ calendar: notRead, savedCopyPath: "unused", store: notRead, shareCards: notRead });
  return new Map(
    registry.getMetricsAsArray().map((metric) => {
      // prom-client's MetricObject type leaves out the labelNames every metric object holds.
      const { name, labelNames = [] } = metric as typeof metric & { labelNames?: string[] };
      return [name, labelNames];
    }),
  );
}

function codePaths() {
  const routes = siteRoutes.map(({ pattern }) => {
    const segments = pattern.split("/").map((segment) =>
      segment
        .split(/(:\w+)/)
        .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
        .join(""),
    );
    return new RegExp(`^/${segments.join("/")}$`);
  });
  const code = ["app", "server"].flatMap((dir) => filesUnder(dir, (file) => sourceFile(file) && !file.includes(".test.")));
  const texts = code.map(read);
  const exact = new Set(texts.flatMap((text) => matchesOf(text, /(?:===\s*|_PATH\s*=\s*)"(\/[^"]*)"/g)));
  const prefixes = texts.flatMap((text) => matchesOf(text, /startsWith\("(\/[^"]*\/)"\)/g));
  const files = new Set(filesUnder("public", () => true).map((file) => `/${path.relative("public", file)}`));
  return { routes, exact, prefixes, files };
}

// ---- What the documents name ----

type Mention = { doc: string; line: number; name: string };
type Names = {
  strictVariables: Mention[];
  variables: Mention[];
  scripts: Mention[];
  metrics: Mention[];
  paths: Mention[];
  links: Mention[];
  codeNames: Mention[];
  files: Mention[];
};

const EMPTY_NAMES: Names = { strictVariables: [], variables: [], scripts: [], metrics: [], paths: [], links: [], codeNames: [], files: [] };

const UPPER = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const ASSIGNMENT = /(?:^|\s)([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)=/g;
const SCRIPT = /\bnpm (?:run(?:-script)? ([a-z][\w:.-]*)|(test|start|stop|restart)\b)/g;
const METRIC = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?:\{([^}]*)\})?$/;
/** camelCase or PascalCase (two capitals at least, so not a plain word), optionally called: `onChange`, `EventsCopy`, `load()`. */
const CODE_NAME = /^([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[a-z][A-Za-z0-9]*(?=\(\)))(?:\(\))?$/;
const FILE = /^[\w.-]+(?:\/[\w.-]+)*\.[a-z]+$/;
const CODE_FILE = /\.(?:ts|tsx|js|mjs)$/;
const SITE_URL = /\b(?:https?:\/\/(?:founders\.example\.org|localhost:3000|[\w.…-]*onrender\.com))(\/[^\s`)"'<>*]*)/g;
/** The first segments of paths on a machine, not on the site. */
const MACHINE_PATHS = new Set([
  "app",
  "bin",
  "dev",
  "etc",
  "home",
  "opt",
  "path",
  "proc",
  "root",
  "run",
  "srv",
  "tmp",
  "usr",
  "var",
  "work",
]);

/** The names a Markdown text gives, each with its line. */
function namesIn(doc: string, text: string, metricPrefixes: Set<string>): Names {
  const names: Names = structuredClone(EMPTY_NAMES);
  let fenced = false;
  let variableTable = false;
  text.split("\n").forEach((content, index) => {
    const at = (name: string): Mention => ({ doc, line: index + 1, name });
    if (/^\s*```/.test(content)) {
      fenced = !fenced;
      return;
    }
    // A sentence's full stop or colon after a name is not part of it.
    const trimmed = (name: string) => name.replace(/[.,:;]+$/, "");
    for (const [, script, builtIn] of content.matchAll(SCRIPT)) names.scripts.push(at(trimmed(script ?? builtIn ?? "")));
    for (const [, sitePath = ""] of content.matchAll(SITE_URL)) names.paths.push(at(trimmed(sitePath)));
    if (fenced) {
      for (const name of matchesOf(content, ASSIGNMENT)) names.strictVariables.push(at(name));
      return;
    }
    for (const [, target = ""] of content.matchAll(/\]\(([^)\s]+)\)/g)) if (!/^[a-z]+:/.test(target)) names.links.push(at(target));
    // A table whose first column is "Variable": its rows name variables.
    const cells = content.startsWith("|") ? content.split("|").map((cell) => cell.trim()) : undefined;
    if (!cells) variableTable = false;
    else if (cells[1] === "Variable") variableTable = true;
    const tableName = variableTable && /^`[A-Z]/.test(cells?.[1] ?? "") ? (cells?.[1] ?? "").replace(/`/g, "") : undefined;
    if (tableName) names.strictVariables.push(at(tableName));

    for (const [, span = ""] of content.matchAll(/`([^`\n]+)`/g)) {
      for (const name of matchesOf(span, ASSIGNMENT)) names.strictVariables.push(at(name));
      const metric = METRIC.exec(span);
      if (UPPER.test(span)) {
        if (span !== tableName) names.variables.push(at(span));
      } else if (metric && metricPrefixes.has(span.split("_")[0] ?? "")) names.metrics.push(at(span));
      else if (/^\/(?!\/)\S*$/.test(span) && !MACHINE_PATHS.has(span.split("/")[1] ?? "")) names.paths.push(at(span));
      else if (CODE_NAME.test(span)) names.codeNames.push(at(span));
      else if (FILE.test(span) && (span.includes("/") ? REPOSITORY_FOLDERS.has(span.split("/")[0] ?? "") : CODE_FILE.test(span)))
        names.files.push(at(span));
    }
  });
  return names;
}

// ---- The checks ----

const where = ({ doc, line, name }: Mention, why: string) => `${doc}:${line}: \`${name}\` ${why}`;

function checkVariables(names: Names, variables: Set<string>, others: Set<string>): string[] {
  return [
    ...names.strictVariables
      .filter(({ name }) => !variables.has(name) && !ICALENDAR.has(name))
      .map((mention) => where(mention, "is no environment variable the code reads (app/env.server.ts's schema, scripts, tests, CI)")),
    ...names.variables
      .filter(({ name }) => !variables.has(name) && !others.has(name))
      .map((mention) =>
        where(
          mention,
          "is no environment variable the code reads (app/env.server.ts's schema, scripts, tests, CI), nor a constant in the code",
        ),
      ),
  ];
}

function checkScripts(names: Names, scripts: Set<string>): string[] {
  return names.scripts.filter(({ name }) => !scripts.has(name)).map((mention) => where(mention, "is no script of package.json"));
}

function checkMetrics(names: Names, metrics: Map<string, string[]>): string[] {
  return names.metrics.flatMap((mention) => {
    const [, name = "", labels] = METRIC.exec(mention.name) ?? [];
    const known = metrics.get(name);
    if (!known) return [where(mention, "is no metric the server registers (server/metrics.ts, prom-client's defaults)")];
    const missing = (labels ?? "")
      .split(",")
      .map((label) => label.split("=")[0]?.trim() ?? "")
      .filter((label) => label && !known.includes(label));
    return missing.map((label) => where(mention, `has no label "${label}" (it has: ${known.join(", ") || "none"})`));
  });
}

function checkPaths(names: Names, site: ReturnType<typeof codePaths>): string[] {
  const answered = (sitePath: string): boolean =>
    site.routes.some((route) => route.test(sitePath)) ||
    site.exact.has(sitePath) ||
    site.prefixes.some((prefix) => sitePath.startsWith(prefix)) ||
    site.files.has(sitePath);
  const resolves = (written: string): boolean => {
    // A placeholder ({id}, <file>, …) stands for a segment; "*" for the rest of the path.
    const sitePath = written
      .replace(/[?#].*$/, "")
      .replace(/\{[^}]*\}|<[^>]*>|…/g, "x")
      .replace(/\*$/, "x");
    if (answered(sitePath)) return true;
    // React Router's data URL of a page (/about.data), and a page's other spellings, which redirect to it.
    if (sitePath.endsWith(".data") && answered(sitePath.slice(0, -".data".length) || "/")) return true;
    const canonical = sitePath.toLowerCase().replace(/(.)\/$/, "$1");
    return canonical !== sitePath && answered(canonical);
  };
  return names.paths
    .filter(({ name }) => !resolves(name))
    .map((mention) => where(mention, "is no path the site answers (app/site-routes.ts, the server's own paths, public/)"));
}

function checkCodeNames(names: Names, words: Set<string>): string[] {
  return names.codeNames
    .filter(({ name }) => !words.has(name.replace(/\(\)$/, "")))
    .map((mention) => where(mention, "is no name in the code (app, server, scripts, tests): renamed or gone?"));
}

function checkFiles(names: Names, codeFileNames: Set<string>): string[] {
  return names.files
    .filter(({ name }) => (name.includes("/") ? readIfThere(name) === undefined : !codeFileNames.has(name)))
    .map((mention) => where(mention, "is no file of the repository"));
}

function checkLinks(names: Names, readDoc: (file: string) => string | undefined): string[] {
  return names.links.flatMap((mention) => {
    const [file = "", anchor] = mention.name.split("#");
    const target = file ? path.normalize(path.join(path.dirname(mention.doc), file)) : mention.doc;
    const text = readDoc(target);
    if (text === undefined) return [where(mention, `links to ${target}, which does not exist`)];
    if (anchor && target.endsWith(".md") && !anchorsOf(text).has(anchor))
      return [where(mention, `links to a heading ${target} does not have`)];
    return [];
  });
}

/** A file's text ("" for a folder), or undefined when there is none. */
const readIfThere = (file: string): string | undefined => {
  try {
    return read(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EISDIR") return "";
    return undefined;
  }
};

/** A variable's default as a table gives it: unset (the schema has none), or the first `value` of its cell. */
type DocumentedDefault = Mention & { cell: string };

/** The rows, with their lines, of every Markdown table of `text` whose header row passes `header`. */
function tableRows(text: string, header: (cells: string[]) => boolean): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  // Undefined outside a table; in one, whether its rows are wanted.
  let wanted: boolean | undefined;
  text.split("\n").forEach((content, index) => {
    if (!content.startsWith("|")) return void (wanted = undefined);
    const cells = content.split("|").map((cell) => cell.trim());
    if (wanted === undefined) wanted = header(cells);
    else if (wanted) rows.push({ line: index + 1, cells });
  });
  return rows;
}

/** Every row of docs/operating.md's tables whose columns start with Variable and Default. */
const documentedDefaults = (doc: string, text: string): DocumentedDefault[] =>
  tableRows(text, (cells) => cells[1] === "Variable" && cells[2] === "Default").flatMap(({ line, cells }) => {
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[1] ?? "")?.[1];
    return name ? [{ doc, line, name, cell: cells[2] ?? "" }] : [];
  });

/** Each documented default that is not what the schema gives a variable left unset. */
function checkDefaults(rows: DocumentedDefault[], parsed: Record<string, unknown>): string[] {
  return rows.flatMap((row) => {
    const actual = parsed[row.name];
    // "unset", or words for a default applied elsewhere (a sample in content/): the schema has none.
    const value = row.cell.startsWith("`") ? /^`([^`]*)`/.exec(row.cell)?.[1] : undefined;
    if (value === undefined)
      return actual === undefined ? [] : [where(row, `says "${row.cell}" but app/env.server.ts defaults it to ${JSON.stringify(actual)}`)];
    // A switch is written on/off (CONTENT_DRAFTS) or true/false; the schema reads either as a boolean.
    const same = String(actual) === value || (typeof actual === "boolean" && value === (actual ? "on" : "off"));
    return same ? [] : [where(row, `says \`${value}\` but app/env.server.ts defaults it to ${JSON.stringify(actual)}`)];
  });
}

/** A document the code names: README.md or docs/….md, with an #anchor or not. */
const DOC_REFERENCE = /\b(README\.md|docs\/[\w./-]*?\.md)(?:#([\w-]+))?/g;
/** A README section the code names by its heading, in quotes: README "Deploy", README, "Operate". */
const README_SECTION = /\bREADME(?:\.md)?,? "([^"]+)"/g;

/** Each document (and anchor) a file of the code names that does not exist. */
function checkReferences(file: string, text: string, readDoc: (file: string) => string | undefined): string[] {
  const problems: string[] = [];
  text.split("\n").forEach((content, index) => {
    const at = (name: string, why: string) => problems.push(where({ doc: file, line: index + 1, name }, why));
    for (const [name, target = "", anchor] of content.matchAll(DOC_REFERENCE)) {
      const doc = readDoc(target);
      if (doc === undefined) at(name, "names a document that does not exist");
      else if (anchor && !anchorsOf(doc).has(anchor)) at(name, `names a heading ${target} does not have`);
    }
    for (const [name, heading = ""] of content.matchAll(README_SECTION))
      if (!anchorsOf(readDoc("README.md") ?? "").has(slugOf(heading))) at(name, "names a section the README does not have");
  });
  return problems;
}

/** The Cache-Control values docs/deploying.md's CDN table gives ("Behind a CDN"), each with its line. */
const documentedCacheControls = (doc: string, text: string): Mention[] =>
  tableRows(text, (cells) => cells[2] === "`Cache-Control`").flatMap(({ line, cells }) => {
    const value = /^`([^`]+)`$/.exec(cells[2] ?? "")?.[1];
    return value ? [{ doc, line, name: value }] : [];
  });

/** The files that may name a document: the code and its comments, the process entry, the build's and tests' configuration, CI, the Dockerfile, ops and content. */
function namingFiles(): string[] {
  const config = (dir: string) => filesUnder(dir, (file) => /\.ya?ml$/.test(file));
  return [
    "server.js",
    "Dockerfile",
    ".ci/run",
    ...readdirSync(".").filter((file) => /\.config\.(ts|js)$/.test(file)),
    ...["app", "server", "scripts", "tests"].flatMap((dir) => filesUnder(dir, sourceFile)),
    ...[".github", "ops", "content"].flatMap(config),
    // Not this test's own examples of names that do not exist.
  ].filter((file) => file !== path.join("tests", "unit", "docs.test.ts"));
}

// ---- The documents ----

const DOCS = ["README.md", ...filesUnder("docs", (file) => file.endsWith(".md"))];

describe("the documents name only what the code has", () => {
  const metrics = codeMetrics();
  const metricPrefixes = new Set([...metrics.keys()].map((name) => name.split("_")[0] ?? ""));
  const names = DOCS.map((doc) => namesIn(doc, read(doc), metricPrefixes)).reduce<Names>(
    (all, one) =>
      Object.fromEntries(Object.entries(all).map(([kind, mentions]) => [kind, [...mentions, ...one[kind as keyof Names]]])) as Names,
    EMPTY_NAMES,
  );
  const code = codeFiles();
  const scripts = new Set(Object.keys((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts));
  const others = new Set([...codeConstants(), ...dockerfileWords(), ...ICALENDAR]);

  it("reads the documents' names of each kind (so the checks below have something to check)", () => {
    expect(DOCS).toContain("docs/operating.md");
    expect(names.strictVariables.length + names.variables.length).toBeGreaterThan(50);
    expect(names.scripts.length).toBeGreaterThan(10);
    expect(names.metrics.length).toBeGreaterThan(15);
    expect(names.paths.length).toBeGreaterThan(30);
    expect(names.links.length).toBeGreaterThan(20);
    expect(names.codeNames.length).toBeGreaterThan(30);
    expect(names.files.length).toBeGreaterThan(30);
  });

  it("every environment variable a document names is read by the code", () => {
    expect(checkVariables(names, codeVariables(), others)).toEqual([]);
  });

  it("every npm script a document names is in package.json", () => {
    expect(checkScripts(names, scripts)).toEqual([]);
  });

  it("every metric a document names is registered, with the labels it gives", () => {
    expect(checkMetrics(names, metrics)).toEqual([]);
  });

  it("every site path a document names is answered", () => {
    expect(checkPaths(names, codePaths())).toEqual([]);
  });

  it("every link between the documents reaches its file and heading", () => {
    expect(checkLinks(names, readIfThere)).toEqual([]);
  });

  it("every function, type or option a document names is in the code", () => {
    expect(checkCodeNames(names, code.words)).toEqual([]);
  });

  it("every file of the repository a document names exists", () => {
    expect(checkFiles(names, code.names)).toEqual([]);
  });

  it("every default docs/operating.md gives a variable is app/env.server.ts's", () => {
    const rows = documentedDefaults("docs/operating.md", read("docs/operating.md"));
    expect(rows.length).toBeGreaterThan(25);
    expect(checkDefaults(rows, parseEnv({}))).toEqual([]);
  });

  it("every Cache-Control docs/deploying.md's CDN table gives is one the server sends (a string of server/)", () => {
    const rows = documentedCacheControls("docs/deploying.md", read("docs/deploying.md"));
    expect(rows.length).toBeGreaterThanOrEqual(7);
    const server = filesUnder("server", (file) => sourceFile(file) && !file.includes(".test."))
      .map(read)
      .join("\n");
    expect(rows.filter(({ name }) => !server.includes(`"${name}"`)).map((row) => where(row, "is no Cache-Control of server/"))).toEqual([]);
  });

  it("every document and heading the code names exists", () => {
    const files = namingFiles();
    expect(files).toEqual(expect.arrayContaining(["Dockerfile", "server.js", "ops/prometheus/alerts.yml", "server/cache-policy.ts"]));
    expect(files.flatMap((file) => checkReferences(file, read(file), readIfThere))).toEqual([]);
  });

  it("reports a wrong default and a document, heading or README section that is not there, with the file and line", () => {
    const table = [
      "| Variable | Default | Meaning |",
      "| --- | --- | --- |",
      "| `PORT` | `8080` | Port. |",
      "| `LOG_LEVEL` | unset | Level. |",
      "| `SITE_URL` | unset: `http://localhost:3000` | Origin. |",
      "| `HOST` | `0.0.0.0` | Address. |",
    ].join("\n");
    expect(checkDefaults(documentedDefaults("fake.md", table), parseEnv({}))).toEqual([
      "fake.md:3: `PORT` says `8080` but app/env.server.ts defaults it to 3000",
      'fake.md:4: `LOG_LEVEL` says "unset" but app/env.server.ts defaults it to "info"',
    ]);
    const code = [
      "// See docs/deploying.md#behind-a-cdn and docs/operating.md#no-such-heading.",
      '// README "Deploy", then README, "Operate"; docs/no-such-guide.md and README.md#run.',
    ].join("\n");
    expect(checkReferences("fake.ts", code, readIfThere).map((problem) => `${problem.split("` ")[0]}\``)).toEqual([
      "fake.ts:1: `docs/operating.md#no-such-heading`",
      "fake.ts:2: `docs/no-such-guide.md`",
      'fake.ts:2: `README, "Operate"`',
    ]);
  });

  it("reports a name the code lacks with its document and line", () => {
    const doc = [
      "Set `NO_SUCH_SETTING=1`, and `ALSO_MISSING`.",
      "```sh",
      "NOT_READ_EITHER=1 npm run no-such-script",
      "```",
      "| Variable | Default |",
      "| `TABLE_ONLY_SETTING` | unset |",
      "",
      "`calendar_no_such_total` and `calendar_reads_total{colour}`, at `/no/such/page` or https://founders.example.org/nowhere.",
      "See [the guide](docs/no-such-guide.md) and [its part](docs/operating.md#no-such-heading).",
      "The service's `onReadOutcome` and `noSuchHelper()` in `tests/e2e/no-such.spec.ts` and `no-such.server.ts`.",
    ].join("\n");
    const fake = namesIn("fake.md", doc, metricPrefixes);
    const problems = [
      ...checkVariables(fake, codeVariables(), others),
      ...checkScripts(fake, scripts),
      ...checkMetrics(fake, metrics),
      ...checkPaths(fake, codePaths()),
      ...checkLinks(fake, readIfThere),
      ...checkCodeNames(fake, code.words),
      ...checkFiles(fake, code.names),
    ];
    expect(problems.map((problem) => problem.split(" ").slice(0, 2).join(" "))).toEqual([
      "fake.md:1: `NO_SUCH_SETTING`",
      "fake.md:3: `NOT_READ_EITHER`",
      "fake.md:6: `TABLE_ONLY_SETTING`",
      "fake.md:1: `ALSO_MISSING`",
      "fake.md:3: `no-such-script`",
      "fake.md:8: `calendar_no_such_total`",
      "fake.md:8: `calendar_reads_total{colour}`",
      "fake.md:8: `/nowhere`",
      "fake.md:8: `/no/such/page`",
      "fake.md:9: `docs/no-such-guide.md`",
      "fake.md:9: `docs/operating.md#no-such-heading`",
      "fake.md:10: `onReadOutcome`",
      "fake.md:10: `noSuchHelper()`",
      "fake.md:10: `tests/e2e/no-such.spec.ts`",
      "fake.md:10: `no-such.server.ts`",
    ]);
  });
});
