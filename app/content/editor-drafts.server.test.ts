// Drafts in the content editor (CONTENT_DRAFTS): the operator's switch, and the configuration it gives
// the editor. Off, the default, the configuration is as it was (a save commits to the branch); on, the
// editor's editorial workflow (a save is a draft pull request, Publish merges it).
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/env.server";
import { editorConfig, type EditorOptions } from "./editor-config.server";

const options: EditorOptions = { repository: "founders/site", branch: "main", siteName: "Founders Circle", signIn: true };

/** The editor's own JSON Schema of its configuration (the package exports only its script). */
const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(
  JSON.parse(readFileSync(path.resolve("node_modules/@sveltia/cms/schema/sveltia-cms.json"), "utf8")) as object,
);

describe("CONTENT_DRAFTS", () => {
  it("is off unless set: a save commits straight to CONTENT_BRANCH, as before", () => {
    expect(parseEnv({}).CONTENT_DRAFTS).toBe(false);
    expect(parseEnv({ CONTENT_DRAFTS: "" }).CONTENT_DRAFTS).toBe(false);
  });

  it.each([
    ["on", true],
    [" ON ", true],
    ["true", true],
    ["off", false],
    ["False", false],
  ])("reads %j as %s", (value, drafts) => {
    expect(parseEnv({ CONTENT_DRAFTS: value }).CONTENT_DRAFTS).toBe(drafts);
  });

  it.each(["yes", "1", "editorial_workflow"])("stops the server on %j, naming the variable and what it takes", (value) => {
    expect(() => parseEnv({ CONTENT_DRAFTS: value })).toThrow(EnvError);
    expect(() => parseEnv({ CONTENT_DRAFTS: value })).toThrow(
      /CONTENT_DRAFTS: must be "on" or "off" \(on: a save in the content editor is a draft pull request, published by merging it; off: a save commits straight to CONTENT_BRANCH\)/,
    );
  });
});

describe("the editor's configuration with drafts", () => {
  it("off: no publish mode, so the editor commits each save to the branch", () => {
    expect(editorConfig(options)).not.toHaveProperty("publish_mode");
    expect(editorConfig({ ...options, drafts: false })).toEqual(editorConfig(options));
  });

  it("on: the editorial workflow, and nothing else changes (same repository, branch, sign-in, forms)", () => {
    const { publish_mode, ...rest } = editorConfig({ ...options, drafts: true });
    expect(publish_mode).toBe("editorial_workflow");
    expect(rest).toEqual(editorConfig(options));
    // A merge commit on publish, not a squash: main keeps the draft's own commits (the fake GitHub merges the same way).
    expect(rest.backend).not.toHaveProperty("squash_merges");
  });

  it.each([false, true])("is a valid configuration by the editor's own JSON Schema (drafts %s)", (drafts) => {
    expect(validate(editorConfig({ ...options, drafts })), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it("the schema refuses a publish mode the editor does not have (so the check above can fail)", () => {
    expect(validate({ ...editorConfig(options), publish_mode: "drafts" })).toBe(false);
    expect(validate.errors?.map((error) => error.instancePath)).toContain("/publish_mode");
  });
});
