// The GitHub Actions workflows are valid (by action-validator, GitHub's workflow schema) and do
// what the README and the editing guide promise: the content check on every change to content/,
// the full CI on every push to main.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const DIR = ".github/workflows";
const validator = path.resolve("node_modules/@action-validator/cli/cli.mjs");
const validate = (file: string) => spawnSync(process.execPath, [validator, file], { encoding: "utf8" });

type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
type Workflow = {
  on: Record<string, { branches?: string[]; paths?: string[] } | null>;
  jobs: Record<string, { steps: Step[]; container?: { image: string } }>;
};
const workflow = (name: string) => parse(readFileSync(path.join(DIR, name), "utf8")) as Workflow;
const runs = (w: Workflow) => Object.values(w.jobs).flatMap((job) => job.steps.map((step) => step.run ?? step.uses ?? ""));

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
    expect(runs(content)).toEqual(["actions/checkout@v4", "actions/setup-node@v4", "npm ci --no-audit --no-fund", "npm run content:check"]);
  });

  it("runs the whole of .ci/run on every push to main, in Debian", () => {
    const ci = workflow("ci.yml");
    expect(ci.on.push?.branches).toEqual(["main"]);
    expect(ci.on.push?.paths).toBeUndefined();
    expect(runs(ci)).toEqual(["actions/checkout@v4", "bash .ci/run"]);
    expect(Object.values(ci.jobs)[0]?.container?.image).toMatch(/^node:22-bookworm/);
  });
});
