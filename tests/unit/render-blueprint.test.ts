// render.yaml, the Render Blueprint (docs/deploying.md), holds to the rest of the repository: it builds
// the Dockerfile, checks the health address the server answers, mounts its disk where the image keeps
// the saved copy, asks for every variable the README's Configure table lists, pull request previews on,
// and never gives a secret a value (a secret is whatever docs/operating.md calls one, or is named like one).
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { envSchema } from "~/env.server";

type EnvVar = { key: string; value?: unknown; sync?: boolean; generateValue?: boolean; fromGroup?: string };
type Service = {
  type: string;
  runtime?: string;
  branch?: string;
  autoDeployTrigger?: string;
  dockerfilePath?: string;
  healthCheckPath?: string;
  disk?: { mountPath?: string; sizeGB?: number };
  previews?: { generation?: string };
  envVars?: EnvVar[];
};

const read = (file: string) => readFileSync(file, "utf8");
const blueprint = parse(read("render.yaml")) as { services: Service[] };
const web = blueprint.services.filter((service) => service.type === "web");
const envVars = web[0]?.envVars ?? [];
const byKey = new Map(envVars.map((variable) => [variable.key, variable]));

/** The README's Configure table: every `NAME` in its rows. */
function configureTableVariables(readme: string): string[] {
  const section = readme.split(/^## /m).find((part) => part.startsWith("Configure\n")) ?? "";
  const rows = section.split("\n").filter((line) => line.startsWith("|"));
  return [...new Set(rows.flatMap((row) => [...row.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!)))];
}

/** The variables docs/operating.md's tables call "A secret", and any named like one. */
function secrets(operating: string, names: readonly string[]): Set<string> {
  const documented = [...operating.matchAll(/^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|[^\n]*\bA secret\b/gm)].map((match) => match[1]!);
  return new Set([...documented, ...names.filter((name) => /(SECRET|_KEY|TOKEN|PASSWORD)$/.test(name))]);
}

/** What is wrong with a Blueprint's variables: a secret with a value, or asked for other than with sync: false. */
function secretProblems(variables: readonly EnvVar[], secretNames: Set<string>): string[] {
  return variables
    .filter((variable) => secretNames.has(variable.key))
    .filter((variable) => variable.sync !== false || "value" in variable || "generateValue" in variable)
    .map((variable) => `${variable.key} must be asked for (sync: false) and given no value`);
}

describe("render.yaml", () => {
  const service = web[0]!;

  it("is one Docker web service built from the repository's Dockerfile", () => {
    expect(web).toHaveLength(1);
    expect(service.runtime).toBe("docker");
    expect(service.dockerfilePath).toBe("./Dockerfile");
    expect(existsSync(service.dockerfilePath!)).toBe(true);
  });

  it("deploys main on each commit (the build runs the content check), or once CI passes: never on no trigger", () => {
    expect(service.branch).toBe("main");
    expect(["commit", "checksPass"]).toContain(service.autoDeployTrigger);
  });

  it("checks health on /healthz, which the server answers and the image's own HEALTHCHECK asks", () => {
    expect(service.healthCheckPath).toBe("/healthz");
    expect(read("server/health.ts")).toContain(`path === "${service.healthCheckPath}"`);
    expect(read("Dockerfile")).toMatch(/^HEALTHCHECK [\s\S]*\/healthz/m);
  });

  it("mounts its disk at /app/.data, the image's volume for the calendar's saved copy", () => {
    expect(service.disk?.mountPath).toBe("/app/.data");
    expect(service.disk?.sizeGB).toBeGreaterThanOrEqual(1);
    expect(read("Dockerfile")).toContain(`VOLUME ["${service.disk?.mountPath}"]`);
  });

  it("makes a preview instance for pull requests (Render's previews.generation, not the deprecated pullRequestPreviewsEnabled)", () => {
    expect(["automatic", "manual"]).toContain(service.previews?.generation);
    expect(service).not.toHaveProperty("pullRequestPreviewsEnabled");
  });

  it("asks for every variable the README's Configure table lists", () => {
    const listed = configureTableVariables(read("README.md"));
    expect(listed).toEqual(expect.arrayContaining(["SITE_URL", "GOOGLE_API_KEY", "CONTENT_REPOSITORY", "GITHUB_OAUTH_CLIENT_SECRET"]));
    expect(listed.filter((name) => !byKey.has(name))).toEqual([]);
  });

  it("names only variables the server reads, and none that Render sets itself", () => {
    const known = new Set(Object.keys(envSchema.in.shape));
    expect(envVars.map((variable) => variable.key).filter((key) => !known.has(key))).toEqual([]);
    // Render's own: a value here would make every preview look live, or the live site a preview.
    for (const own of ["IS_PULL_REQUEST", "RENDER_EXTERNAL_URL", "PORT"]) expect(byKey.has(own), own).toBe(false);
  });

  it("never gives a secret a value: each is asked for when the Blueprint is applied (sync: false)", () => {
    const secretNames = secrets(read("docs/operating.md"), Object.keys(envSchema.in.shape));
    expect([...secretNames]).toEqual(expect.arrayContaining(["GOOGLE_API_KEY", "GITHUB_OAUTH_CLIENT_SECRET"]));
    expect(secretProblems(envVars, secretNames)).toEqual([]);
    // The file holds no value that looks like a key or a secret either.
    expect(read("render.yaml")).not.toMatch(/AIza|Ov23|ghp_|gho_|-----BEGIN/);
  });

  it("would report a secret given a value, or given none without sync: false (so the check above can fail)", () => {
    const names = new Set(["GOOGLE_API_KEY", "GITHUB_OAUTH_CLIENT_SECRET"]);
    expect(
      secretProblems(
        [
          { key: "GOOGLE_API_KEY", value: "AIza-example" },
          { key: "GITHUB_OAUTH_CLIENT_SECRET" },
          { key: "SITE_URL", value: "https://founders.example.org" },
        ],
        names,
      ),
    ).toEqual([
      "GOOGLE_API_KEY must be asked for (sync: false) and given no value",
      "GITHUB_OAUTH_CLIENT_SECRET must be asked for (sync: false) and given no value",
    ]);
  });
});
