// The GitHub Actions workflows are valid (by action-validator, GitHub's workflow schema) and do
// what the README and the editing guide promise: the content check on every change to content/,
// the full CI on every push to main, and both on the content editor's drafts (draft pull requests
// from cms/ branches). Dependabot's configuration is valid (by its JSON Schema) and asks for what
// the README promises: weekly updates of npm's packages, the actions and the base image.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const DIR = ".github/workflows";
const validator = path.resolve("node_modules/@action-validator/cli/cli.mjs");
const validate = (file: string) => spawnSync(process.execPath, [validator, file], { encoding: "utf8" });

type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
type Filters = { types?: string[]; branches?: string[]; "branches-ignore"?: string[]; paths?: string[]; "paths-ignore"?: string[] };
type Workflow = {
  on: Record<string, Filters | null>;
  jobs: Record<string, { if?: string; steps: Step[]; container?: { image: string } }>;
};
const workflow = (name: string) => parse(readFileSync(path.join(DIR, name), "utf8")) as Workflow;
const runs = (w: Workflow) => Object.values(w.jobs).flatMap((job) => job.steps.map((step) => step.run ?? step.uses ?? ""));
/** An action at whatever major version Dependabot last brought. */
const anyMajor = (step: string) => step.replace(/^(actions\/[\w-]+)@v\d+$/, "$1@vN");

/** A pull request as the content editor opens one for a draft (CONTENT_DRAFTS=on): from its cms/ branch into main. */
type PullRequest = { head: string; base: string; draft: boolean; files: string[] };
const DRAFT: PullRequest = { head: "cms/content/board", base: "main", draft: true, files: ["content/board.yaml"] };

/** A filter pattern of GitHub's, as these workflows write them (`*` within a path segment, `**` across them). */
const globMatches = (glob: string, value: string) =>
  new RegExp(
    `^${glob
      .split(/(\*\*\/?|\*)/)
      .map((part) =>
        part === "**/" ? "(?:.*/)?" : part === "**" ? ".*" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("")}$`,
  ).test(value);
/** Every filter pattern the workflows hold: only `*`, `**` and plain path characters, which `globMatches` reads as GitHub does. */
const filterPatterns = (w: Workflow) =>
  Object.values(w.on).flatMap((filters) => [
    ...(filters?.branches ?? []),
    ...(filters?.["branches-ignore"] ?? []),
    ...(filters?.paths ?? []),
    ...(filters?.["paths-ignore"] ?? []),
  ]);

/**
 * The jobs GitHub runs for a pull_request event of `type` (opened, synchronize, …) on `pr`, by GitHub's rules: the
 * activity types (opened, synchronize and reopened when none are given), the base branch against branches and
 * branches-ignore, the changed files against paths and paths-ignore; then each job's `if`, which a draft meets
 * unless it names the draft state.
 */
function jobsOnPullRequest(w: Workflow, type: string, pr: PullRequest): string[] {
  if (!("pull_request" in w.on)) return [];
  const filters = w.on.pull_request ?? {};
  const any = (patterns: string[], value: string) => patterns.some((pattern) => globMatches(pattern, value));
  const started =
    (filters.types ?? ["opened", "synchronize", "reopened"]).includes(type) &&
    (!filters.branches || any(filters.branches, pr.base)) &&
    !(filters["branches-ignore"] && any(filters["branches-ignore"], pr.base)) &&
    (!filters.paths || pr.files.some((file) => any(filters.paths!, file))) &&
    !(filters["paths-ignore"] && pr.files.every((file) => any(filters["paths-ignore"]!, file)));
  if (!started) return [];
  return Object.entries(w.jobs)
    .filter(([, job]) => !(pr.draft && /\bdraft\b/.test(job.if ?? "")))
    .map(([name]) => name);
}

describe("GitHub Actions workflows", () => {
  const files = readdirSync(DIR).filter((file) => /\.ya?ml$/.test(file));

  it.each(files)("%s is a valid workflow", (file) => {
    const result = validate(path.join(DIR, file));
    expect(result.stdout + result.stderr, file).not.toMatch(/"errors"/);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it("the validator refuses a broken workflow (so the check above can fail)", () => {
    const broken = path.join(mkdtempSync(path.join(tmpdir(), "workflow-")), "broken.yml");
    writeFileSync(broken, readFileSync(path.join(DIR, "ci.yml"), "utf8").replace("runs-on:", "runs_on:"));
    const result = validate(broken);
    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain("runs_on");
  });

  it("checks the content on every push and pull request that touches content/, from the lockfile", () => {
    const content = workflow("content.yml");
    expect(content.on.push?.paths).toContain("content/**");
    expect(content.on.pull_request?.paths).toContain("content/**");
    expect(runs(content).map(anyMajor)).toEqual([
      "actions/checkout@vN",
      "actions/setup-node@vN",
      "npm ci --no-audit --no-fund",
      "npm run content:check",
    ]);
  });

  it("runs the whole of .ci/run on every push to main and every pull request (Dependabot's too), in Debian", () => {
    const ci = workflow("ci.yml");
    expect(ci.on.push?.branches).toEqual(["main"]);
    expect(ci.on).toHaveProperty("pull_request");
    expect(ci.on.push?.paths).toBeUndefined();
    expect(runs(ci).map(anyMajor)).toEqual(["actions/checkout@vN", "bash .ci/run"]);
    expect(Object.values(ci.jobs)[0]?.container?.image).toMatch(/^node:22-bookworm/);
  });

  it("runs the Node the container ships: the Dockerfile's base image is CI's major version", () => {
    const major = (image: string | undefined) => /^node:(\d+)-/.exec(image ?? "")?.[1];
    const ci = major(Object.values(workflow("ci.yml").jobs)[0]?.container?.image);
    const base = major(/^FROM\s+(\S+)/m.exec(readFileSync("Dockerfile", "utf8"))?.[1]);
    expect(ci).toBeDefined();
    // A Dependabot pull request that moves the base image to a new major fails here until CI runs that major too.
    expect(base, "the Dockerfile's node:<major> (its first FROM)").toBe(ci);
  });

  it("runs both on a draft from the content editor (a draft pull request from cms/…): when it is opened and on each later save", () => {
    for (const file of ["ci.yml", "content.yml"]) {
      const w = workflow(file);
      expect(
        filterPatterns(w).filter((pattern) => !/^[\w./*-]+$/.test(pattern)),
        file,
      ).toEqual([]);
      for (const type of ["opened", "synchronize"])
        expect(jobsOnPullRequest(w, type, DRAFT), `${file} ${type}`).toEqual(Object.keys(w.jobs));
    }
    // What each runs there: the content check, and the whole of .ci/run.
    expect(runs(workflow("content.yml"))).toContain("npm run content:check");
    expect(runs(workflow("ci.yml"))).toContain("bash .ci/run");
  });

  it("would see a workflow that leaves drafts out (so the check above can fail)", () => {
    const content = workflow("content.yml");
    const variant = (on: Filters | null, jobIf?: string): Workflow => ({
      on: { pull_request: on },
      jobs: { check: { ...(jobIf ? { if: jobIf } : {}), steps: [] } },
    });
    expect(jobsOnPullRequest(variant(null), "opened", DRAFT)).toEqual(["check"]);
    expect(jobsOnPullRequest(content, "opened", { ...DRAFT, files: ["app/root.tsx"] })).toEqual([]);
    expect(jobsOnPullRequest(variant({ types: ["ready_for_review"] }), "opened", DRAFT)).toEqual([]);
    expect(jobsOnPullRequest(variant({ branches: ["release/**"] }), "opened", DRAFT)).toEqual([]);
    expect(jobsOnPullRequest(variant({ "branches-ignore": ["main"] }), "opened", DRAFT)).toEqual([]);
    expect(jobsOnPullRequest(variant({ "paths-ignore": ["content/**"] }), "synchronize", DRAFT)).toEqual([]);
    expect(jobsOnPullRequest(variant(null, "github.event.pull_request.draft == false"), "opened", DRAFT)).toEqual([]);
    expect(jobsOnPullRequest({ on: { push: null }, jobs: content.jobs }, "opened", DRAFT)).toEqual([]);
  });
});

// SchemaStore's schema of dependabot.yml (https://json.schemastore.org/dependabot-2.0.json), as in
// SchemaStore/schemastore src/schemas/json/dependabot-2.0.json at 3b6446ad (2026-08-07; Apache-2.0: LICENSE and NOTICE
// beside it), laid out by Prettier. No npm package ships it as JSON (@schemastore/dependabot-2.0 holds TypeScript types only), and the
// tests read nothing from the network: replace the file to take a newer schema.
const DEPENDABOT_SCHEMA = "tests/unit/schemas/dependabot-2.0.json";

type Update = {
  "package-ecosystem": string;
  directory: string;
  schedule: { interval: string };
  groups?: Record<string, { "dependency-type"?: string; "update-types"?: string[]; patterns?: string[] }>;
};

describe("Dependabot", () => {
  const ajv = new Ajv({ allErrors: true });
  // JetBrains' editor hints in the schema: annotations, not rules.
  ajv.addKeyword("x-intellij-enum-metadata");
  const validate = ajv.compile(JSON.parse(readFileSync(DEPENDABOT_SCHEMA, "utf8")) as object);
  const problems = (config: unknown) => (validate(config) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
  const config = parse(readFileSync(".github/dependabot.yml", "utf8")) as { version: number; updates: Update[] };
  const update = (ecosystem: string) => config.updates.find((u) => u["package-ecosystem"] === ecosystem);

  it(".github/dependabot.yml is valid by Dependabot's JSON Schema", () => {
    expect(problems(config)).toEqual([]);
  });

  it("the schema refuses a misspelt key and an unknown interval (so the check above can fail)", () => {
    const broken = structuredClone(config);
    (broken.updates[0] as Record<string, unknown>)["shedule"] = { interval: "weekly" };
    (broken.updates[1] as Update).schedule.interval = "fortnightly";
    const found = problems(broken).join("\n");
    expect(found).toContain("must NOT have additional properties");
    expect(found).toContain("/updates/1/schedule/interval must be equal to one of the allowed values");
  });

  it("asks every week for npm's production and development packages in a group each, the actions and the base image", () => {
    expect(config.updates.map((u) => [u["package-ecosystem"], u.directory, u.schedule.interval])).toEqual([
      ["npm", "/", "weekly"],
      ["github-actions", "/", "weekly"],
      ["docker", "/", "weekly"],
    ]);
    const groups = Object.values(update("npm")?.groups ?? {});
    expect(groups.map((group) => group["dependency-type"])).toEqual(["production", "development"]);
    // Minor and patch versions together; a major version alone (it may need code changes).
    for (const group of groups) expect(group["update-types"]).toEqual(["minor", "patch"]);
  });

  it("finds the container's base image: written out in one FROM, every other stage starting from that stage", () => {
    // Dependabot's docker updates read an image and tag in a FROM line, never a variable (`FROM ${NODE_IMAGE}`).
    const froms = [...readFileSync("Dockerfile", "utf8").matchAll(/^FROM\s+(.+)$/gm)].map((match) => (match[1] ?? "").trim());
    expect(froms[0]).toMatch(/^node:\d+-[a-z]+-slim AS node-official$/);
    expect(froms.slice(1).every((from) => /^node-official\b/.test(from))).toBe(true);
    expect(froms.join("\n")).not.toContain("$");
  });
});
