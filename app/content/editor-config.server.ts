// The content editor's configuration (Sveltia CMS at /admin), generated from the content schema
// (schema.ts) through zod's JSON Schema: every file of content/ is a form, every field an input
// with the schema's own label (`title`) and hint (`description`), required where the schema
// requires it, and every list as long as the schema allows. Nothing here names a field.
import type { CmsConfig, CollectionFile, Field } from "@sveltia/cms";
import { z } from "zod";
import { ADMIN_AUTH_PATH } from "~/site-routes";
import { filePages } from "./file-pages";
import { PHOTO_ACCEPT } from "./photo-formats";
import { contentFiles } from "./schema";

export type EditorOptions = {
  /** The GitHub repository the editor commits to, "owner/name". */
  repository: string;
  branch: string;
  /** The site's public address, for the editor's "view site" link. */
  siteUrl?: string;
  /** Shown in the browser tab and on the sign-in page. */
  siteName: string;
  /**
   * "Sign in with GitHub" through this server (server/github-oauth.ts, at ADMIN_AUTH_PATH). The page
   * gives the editor its origin (server/admin.ts). Without it: access tokens only.
   */
  signIn?: boolean;
  /**
   * Drafts (CONTENT_DRAFTS): a save is a draft pull request on a `cms/<collection>/<file>` branch, moved
   * through Draft, In Review and Ready, and Publish merges it. Without it: a save is a commit on `branch`.
   */
  drafts?: boolean;
};

/** Where photos go in the repository, and how content files name them ("images/<file>"). */
export const MEDIA_FOLDER = "content/images";
export const PUBLIC_FOLDER = "images";
/** The config's JSON Schema, as the editor names it (it warns, on localhost, about a config without it). */
const CONFIG_SCHEMA = "https://unpkg.com/@sveltia/cms/schema/sveltia-cms.json";

type Node = z.core.JSONSchema.JSONSchema & {
  /** The message zod gives a value that does not match `pattern` (added by `toJson`). */
  patternMessage?: string;
};

/** A file's JSON Schema, each pattern with the message the content check gives when it is not met. */
function toJson(schema: z.ZodType): Node {
  return z.toJSONSchema(schema, {
    io: "input",
    override: ({ zodSchema, jsonSchema }) => {
      if (typeof jsonSchema.pattern !== "string" && jsonSchema.format !== "uri") return;
      // A string no pattern of ours accepts; the first issue is the schema's own wording.
      const result = z.safeParse(zodSchema, "\u0000");
      if (!result.success) (jsonSchema as Node).patternMessage = result.error.issues[0]?.message;
    },
  }) as Node;
}

function child(node: Node): Node {
  if (typeof node !== "object" || node === null || Array.isArray(node)) throw new Error("the content schema has a field without a type");
  return node as Node;
}

/** The label and hint every field carries; a field without a title is a schema defect, named here. */
function common(name: string, node: Node, required: boolean, where: string) {
  if (!node.title) throw new Error(`content schema: ${where} has no title (add .meta({ title }) in app/content/schema.ts)`);
  return { name, label: node.title, ...(node.description ? { hint: node.description } : {}), required };
}

function stringField(name: string, node: Node, required: boolean, where: string): Field {
  const base = common(name, node, required, where);
  if (node.editor === "photo") return { ...base, widget: "image", accept: PHOTO_ACCEPT, choose_url: false };
  if (Array.isArray(node.enum)) return { ...base, widget: "select", options: node.enum.map(String) };
  const widget = node.editor === "multiline" ? "text" : "string";
  const type = node.format === "email" ? "email" : node.format === "uri" ? "url" : undefined;
  // Emptiness needs no pattern: the editor trims a value before it checks or saves it, as zod does.
  let pattern: [string, string] | undefined;
  if (node.format === "uri") pattern = ["^https?://\\S+$", node.patternMessage ?? "must be an absolute http(s) URL"];
  else if (typeof node.pattern === "string") pattern = [node.pattern, node.patternMessage ?? "is not in the expected form"];
  if (widget === "text") return { ...base, widget, ...(pattern ? { pattern } : {}) };
  return { ...base, widget, ...(type ? { type } : {}), ...(pattern ? { pattern } : {}) };
}

function numberField(name: string, node: Node, required: boolean, where: string): Field {
  const integer = node.type === "integer";
  const min = node.minimum ?? (typeof node.exclusiveMinimum === "number" ? node.exclusiveMinimum + (integer ? 1 : 0) : undefined);
  const max = node.maximum ?? (typeof node.exclusiveMaximum === "number" ? node.exclusiveMaximum - (integer ? 1 : 0) : undefined);
  return {
    ...common(name, node, required, where),
    widget: "number",
    value_type: integer ? "int" : "float",
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
  };
}

function listField(name: string, node: Node, required: boolean, where: string): Field {
  const items = child(node.items as Node);
  const bounds = {
    ...(node.minItems !== undefined ? { min: node.minItems } : {}),
    ...(node.maxItems !== undefined ? { max: node.maxItems } : {}),
  };
  const base = { ...common(name, node, required, where), widget: "list" as const, ...bounds };
  if (items.type === "object") {
    const fields = fieldsOf(items, `${where}[]`);
    // Each collapsed item is shown by its first one-line text (a founder by name, a question by itself).
    const first = fields.find((field) => "widget" in field && field.widget === "string");
    return {
      ...base,
      ...(items.title ? { label_singular: items.title } : {}),
      ...(first ? { summary: `{{fields.${first.name}}}` } : {}),
      fields,
    };
  }
  return { ...base, field: fieldFor("item", items, true, `${where}[]`) };
}

function fieldFor(name: string, node: Node, required: boolean, where: string): Field {
  if (node.type === "object") return { ...common(name, node, required, where), widget: "object", fields: fieldsOf(node, where) };
  if (node.type === "array") return listField(name, node, required, where);
  if (node.type === "integer" || node.type === "number") return numberField(name, node, required, where);
  if (node.type === "string") return stringField(name, node, required, where);
  throw new Error(`content schema: ${where} has a type the editor cannot show (${JSON.stringify(node.type)})`);
}

function fieldsOf(node: Node, where: string): Field[] {
  const required = new Set(node.required ?? []);
  return Object.entries(node.properties ?? {}).map(([name, property]) =>
    fieldFor(name, child(property as Node), required.has(name), where ? `${where}.${name}` : name),
  );
}

/** The forms: one per file of content/, in the order of `contentFiles`. */
export function editorFiles(): CollectionFile[] {
  return Object.entries(contentFiles).map(([key, { file, schema }]) => {
    const root = toJson(schema);
    if (!root.title) throw new Error(`content schema: ${file} has no title`);
    const fields = fieldsOf(root, "");
    // A media folder beside the file (content/images/) makes the editor write a photo relative to
    // it, "images/<file>", as the site reads it; a folder set only globally would be "/images/<file>".
    const photos = JSON.stringify(fields).includes('"widget":"image"') ? { media_folder: PUBLIC_FOLDER } : {};
    // The page the file shows on: the entry's "View on Live Site" link.
    return { name: key, label: root.title, file: `content/${file}`, preview_path: filePages[key as keyof typeof filePages], ...photos, fields };
  });
}

/** The editor's whole configuration (served as /admin/config.json). */
export function editorConfig({ repository, branch, siteUrl, siteName, signIn, drafts }: EditorOptions): CmsConfig & { $schema: string } {
  return {
    $schema: CONFIG_SCHEMA,
    backend: {
      name: "github",
      repo: repository,
      branch,
      // A fine-grained token, kept in the browser; with an OAuth app set up, "Sign in with GitHub" first.
      ...(signIn ? { auth_methods: ["oauth", "token"], auth_endpoint: ADMIN_AUTH_PATH.slice(1) } : { auth_methods: ["token"] }),
      commit_messages: {
        update: "Edit {{slug}} in the content editor",
        uploadMedia: "Upload {{path}} in the content editor",
        deleteMedia: "Delete {{path}} in the content editor",
      },
    },
    // A pull request is merged with a merge commit (squash_merges unset), so main keeps the draft's own commits.
    ...(drafts ? { publish_mode: "editorial_workflow" as const } : {}),
    app_title: `${siteName} content`,
    ...(siteUrl ? { site_url: siteUrl, display_url: siteUrl } : {}),
    logo: { src: "/favicon.svg" },
    media_folder: MEDIA_FOLDER,
    public_folder: PUBLIC_FOLDER,
    media_libraries: {
      // Phone file names ("IMG_2041 (1).JPG") become what the photo check accepts ("img_2041-1.jpg").
      default: { config: { slugify_filename: true, max_file_size: 25_000_000 } },
      // Photos are of the community's own people, never stock photos from another service.
      stock_assets: { providers: [] },
    },
    slug: { encoding: "ascii", clean_accents: true },
    // An emptied optional field is left out of the file, never written as ''.
    output: { omit_empty_optional_fields: true },
    collections: [{ name: "content", label: "Site content", label_singular: "Page", files: editorFiles() }],
  };
}
