// The editor's configuration and the content schema held together: what the editor lets a
// volunteer save is what the content check (and so the build) accepts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { copyOfContent } from "../../tests/support/content-fixture";
import { siteRoutes } from "~/site-routes";
import { editorConfig, editorFiles, MEDIA_FOLDER, PUBLIC_FOLDER } from "./editor-config.server";
import { filePages } from "./file-pages";
import { loadContent } from "./load.server";
import { boardMemberSchema, contentFiles, founderSchema } from "./schema";

const config = editorConfig({ repository: "founders/site", branch: "main", siteUrl: "https://founders.example.org", siteName: "Founders Circle" });
const files = editorFiles();

type Json = z.core.JSONSchema._JSONSchema;
/** An editor field as the config holds it (Sveltia's own union type is too fine-grained to walk). */
type Field = { name: string; label?: string; widget?: string; required?: boolean; pattern?: [string, string]; field?: Field; fields?: Field[] } & Record<string, unknown>;
/** A field's sub-fields (object, list of objects) or its one item field (list of texts). */
const childrenOf = (field: Field): Field[] => field.fields ?? (field.field ? [field.field] : []);

/** Every property of a JSON Schema, as "path" → its node and whether its parent requires it. */
function schemaFields(node: Json, prefix = "", out = new Map<string, { node: Json; required: boolean }>()) {
  if (typeof node !== "object") return out;
  const required = new Set(node.required ?? []);
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.set(path, { node: child, required: required.has(name) });
    if (typeof child !== "object") continue;
    if (child.type === "object") schemaFields(child, path, out);
    const items = child.items;
    if (child.type === "array" && typeof items === "object" && !Array.isArray(items)) {
      if (items.type === "object") schemaFields(items, `${path}[]`, out);
      else out.set(`${path}[]`, { node: items, required: true });
    }
  }
  return out;
}

/** Every editor field, as the same kind of path. */
function editorFields(fields: Field[], prefix = "", out = new Map<string, Field>()) {
  for (const field of fields) {
    const path = prefix ? `${prefix}.${field.name}` : field.name;
    out.set(path, field);
    if (field.field) out.set(`${path}[]`, field.field);
    else if (field.widget === "list") editorFields(childrenOf(field), `${path}[]`, out);
    else editorFields(childrenOf(field), path, out);
  }
  return out;
}

const fileForm = (key: keyof typeof contentFiles) => files.find((file) => file.name === key)!;
const formFields = (key: keyof typeof contentFiles) => fileForm(key).fields as unknown as Field[];
const fieldAt = (key: keyof typeof contentFiles, path: string) => editorFields(formFields(key)).get(path);

describe("the editor's configuration, generated from the content schema", () => {
  it("has a form for every file of content/, writing to that file", () => {
    expect(files.map((file) => [file.name, file.file])).toEqual(Object.entries(contentFiles).map(([key, { file }]) => [key, `content/${file}`]));
  });

  it.each(Object.keys(contentFiles) as (keyof typeof contentFiles)[])(
    "%s: every field of the schema is editable, with its label, and required exactly when the schema requires it",
    (key) => {
      const schema = schemaFields(z.toJSONSchema(contentFiles[key].schema, { io: "input" }));
      const editor = editorFields(formFields(key));
      expect([...editor.keys()].sort()).toEqual([...schema.keys()].sort());
      for (const [path, { node, required }] of schema) {
        const field = editor.get(path)!;
        const title = typeof node === "object" ? node.title : undefined;
        expect(title, `${key}: ${path} needs a title in schema.ts`).toBeTruthy();
        expect(field.label, path).toBe(title);
        if (!path.endsWith("[]")) expect(field.required, `${key}: ${path}`).toBe(required);
      }
    },
  );

  it("links every file to the page it changes (preview_path), a page of the site's sitemap", () => {
    const pages = new Set(siteRoutes.filter((route) => route.sitemap).map((route) => `/${route.pattern}`));
    expect(files.map((file) => [file.name, file.preview_path])).toEqual(Object.keys(contentFiles).map((key) => [key, filePages[key as keyof typeof filePages]]));
    for (const file of files) expect(pages, `${file.name}: ${file.preview_path}`).toContain(file.preview_path);
    expect(Object.fromEntries(files.map((file) => [file.name, file.preview_path]))).toMatchObject({
      founders: "/",
      board: "/about",
      steps: "/apply",
      events: "/events",
      site: "/",
    });
  });

  it.each([
    ["founders", "founders", 6],
    ["board", "board", 7],
    ["benefits", "benefits", 6],
    ["steps", "steps", 3],
    ["home", "photoTiles", 2],
  ] as const)("%s: the list %s holds exactly %i (no adding past it, no saving below it)", (key, path, count) => {
    expect(fieldAt(key, path)).toMatchObject({ widget: "list", min: count, max: count, required: true });
  });

  it("names each founder and board member by name in the list", () => {
    expect(fieldAt("founders", "founders")).toMatchObject({ label_singular: "Founder", summary: "{{fields.name}}" });
    expect(fieldAt("board", "board")).toMatchObject({ label_singular: "Board member", summary: "{{fields.name}}" });
  });

  it("uploads photos into content/images/ and writes them as images/<file>, a path the content check accepts", () => {
    for (const key of ["founders", "board"] as const) {
      const photo = fieldAt(key, `${key}[].photo`);
      expect(photo).toMatchObject({ widget: "image", required: false, accept: "image/jpeg,image/png,image/webp,image/heic,image/heif,.jpg,.jpeg,.png,.webp,.heic,.heif" });
    }
    expect(config).toMatchObject({ media_folder: "content/images", public_folder: "images" });
    // A media folder beside the two files with photos: the editor then writes "images/<file>",
    // relative to the file, where a global folder alone gives "/images/<file>".
    expect(files.filter((file) => "media_folder" in file).map((file) => [file.name, file.media_folder])).toEqual([
      ["founders", "images"],
      ["board", "images"],
    ]);
    expect([MEDIA_FOLDER, PUBLIC_FOLDER]).toEqual(["content/images", "images"]);
    // Uploads are renamed to a slug ("IMG_2041 (1).JPG" → "img_2041-1.jpg"), in ASCII.
    expect(config.media_libraries?.default).toMatchObject({ config: { slugify_filename: true } });
    expect(config.slug).toMatchObject({ encoding: "ascii", clean_accents: true });
    for (const file of ["img_2041-1.jpg", "maya-okafor.jpeg", "portrait.png", "jonah.webp", "img_2042.heic", "img_2043.heif"]) {
      const written = `${PUBLIC_FOLDER}/${file}`;
      expect(founderSchema.shape.photo.safeParse(written).success, written).toBe(true);
      expect(boardMemberSchema.shape.photo.safeParse(written).success, written).toBe(true);
    }
  });

  it("leaves an emptied optional field out of the file (the schema refuses '')", () => {
    expect(config.output).toMatchObject({ omit_empty_optional_fields: true });
    // The editor omits only fields it knows are optional; every optional field is marked so.
    const founder = { name: "A", title: "B", company: "C", description: "D" };
    expect(founderSchema.safeParse(founder).success).toBe(true);
    for (const optional of ["linkedinUrl", "photo", "photoAlt"]) {
      expect(fieldAt("founders", `founders[].${optional}`)?.required, optional).toBe(false);
      expect(founderSchema.safeParse({ ...founder, [optional]: "" }).success, `${optional}: ''`).toBe(false);
    }
    expect(fieldAt("site", "nonprofitStatus")?.required).toBe(false);
    expect(fieldAt("site", "calendar")?.required).toBe(false);
  });

  it("accepts every value the shipped content holds, by the same patterns", async () => {
    const { content, problems } = await loadContent(copyOfContent());
    expect(problems).toEqual([]);
    const raw = content as unknown as Record<string, unknown>;
    const checked: string[] = [];
    // Walks a file's data beside its form: every text with a pattern must match it.
    const visit = (value: unknown, field: Field, where: string) => {
      if (Array.isArray(value)) {
        const [item] = childrenOf(field);
        value.forEach((entry, i) => (field.field ? visit(entry, item!, `${where}[${i}]`) : visitObject(entry, childrenOf(field), `${where}[${i}]`)));
      } else if (value && typeof value === "object") visitObject(value, childrenOf(field), where);
      else if (typeof value === "string" && field.pattern) {
        expect(new RegExp(field.pattern[0], "u").test(value), `${where} = ${JSON.stringify(value)}`).toBe(true);
        checked.push(where);
      }
    };
    const visitObject = (value: unknown, fields: Field[], where: string) => {
      for (const field of fields) visit((value as Record<string, unknown>)[field.name], field, `${where}.${field.name}`);
    };
    for (const file of files) {
      const data = contentFiles[file.name as keyof typeof contentFiles];
      const value = "list" in data ? { [data.list]: raw[file.name] } : raw[file.name];
      visitObject(value, formFields(file.name as keyof typeof contentFiles), file.name);
    }
    expect(checked.length).toBeGreaterThan(10);
  });

  it("refuses in the editor what the content check refuses", () => {
    const pattern = (key: keyof typeof contentFiles, path: string) => {
      return new RegExp(fieldAt(key, path)!.pattern![0], "u");
    };
    expect(pattern("founders", "founders[].linkedinUrl").test("linkedin.com/in/x")).toBe(false);
    expect(pattern("site", "nonprofitStatus").test("501c3")).toBe(false);
    expect(pattern("site", "email").test("not-an-email")).toBe(false);
    expect(fieldAt("founders", "founders[].linkedinUrl")).toMatchObject({ pattern: [expect.any(String), "must be an absolute http(s) URL"] });
    expect(fieldAt("site", "copyrightYear")).toMatchObject({ widget: "number", value_type: "int", min: 2000, max: 2100 });
    expect(fieldAt("benefits", "benefits[].icon")).toMatchObject({ widget: "select", options: ["users", "newspaper", "calendar", "mic", "badge-percent", "graduation-cap"] });
  });

  it("signs in with a GitHub token only (no OAuth server or hosted service) and commits to the repository given", () => {
    expect(config.backend).toMatchObject({ name: "github", repo: "founders/site", branch: "main", auth_methods: ["token"] });
    expect(config.backend).toMatchObject({ commit_messages: { update: "Edit {{slug}} in the content editor" } });
  });

  it("offers Sign in with GitHub, through the server's popup address, before the token when the OAuth app is set up", () => {
    const withOAuth = editorConfig({ repository: "founders/site", branch: "main", siteName: "Founders Circle", signIn: true });
    expect(withOAuth.backend).toMatchObject({ name: "github", auth_methods: ["oauth", "token"], auth_endpoint: "admin/auth" });
    // Its origin comes from the page (server/admin.ts): never Netlify's default.
    expect(withOAuth.backend).not.toHaveProperty("base_url");
    expect(config.backend).not.toHaveProperty("auth_endpoint");
  });

  it.each([
    ["token only", false],
    ["with Sign in with GitHub", true],
  ])("is a valid configuration by the editor's own JSON Schema (%s)", (_name, signIn) => {
    // The package exports only its script; its schema is a file beside it.
    const schema = JSON.parse(readFileSync(path.resolve("node_modules/@sveltia/cms/schema/sveltia-cms.json"), "utf8")) as object;
    // The editor's schema documents itself with keywords Ajv does not know (markdownDescription).
    const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    const valid = validate(signIn ? editorConfig({ repository: "founders/site", branch: "main", siteName: "Founders Circle", signIn }) : config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 3))).toEqual([]);
    expect(valid).toBe(true);
  });

  it("names a schema field without a title instead of generating a form without a label", async () => {
    const { editorFiles: generate } = await import("./editor-config.server");
    const original = contentFiles.events.schema;
    const untitled = z.strictObject({ lead: z.string(), description: z.string() }).meta({ title: "Events page" });
    Object.assign(contentFiles.events, { schema: untitled });
    try {
      expect(() => generate()).toThrow("content schema: lead has no title (add .meta({ title }) in app/content/schema.ts)");
    } finally {
      Object.assign(contentFiles.events, { schema: original });
    }
  });
});
