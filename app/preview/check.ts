// What a volunteer is typing, checked as the content check checks the file (its schema, with the
// same wording): either the value the page is drawn from, or the schema's messages, each named by the
// labels the editor shows ("Featured founders › Founder 3 › Name: required").
import { z } from "zod";
import type { ContentFileKey } from "~/content/file-pages";
import { operatorWording } from "~/content/problem-wording";
import { contentFiles } from "~/content/schema";

export type FileValue<K extends ContentFileKey> = z.output<(typeof contentFiles)[K]["schema"]>;
export type Problem = { where: string; message: string };
export type Checked<K extends ContentFileKey> = { value: FileValue<K>; problems?: undefined } | { value?: undefined; problems: Problem[] };

const isEmpty = (value: unknown) => value === null || value === undefined || (typeof value === "string" && value.trim() === "");

/** `value` with each string mapped by `map`, and each object's empty fields (null, undefined, blank) left out. */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, field]) => (isEmpty(field) ? [] : [[key, mapStrings(field, map)]])));
}

/**
 * The value as the editor will save it: trimmed, and an emptied field, which it keeps as "" until it
 * saves, left out of the file (omit_empty_optional_fields). An emptied required field is then
 * missing, and the schema says it is required, as the editor does.
 */
export const asSaved = (value: unknown): unknown => mapStrings(value, (text) => text.trim());

/**
 * A photo just picked is the editor's blob: URL until it is saved, when the editor writes it as
 * images/<its name>: a name it made acceptable, of a format its picker allows (editor-config.server.ts).
 * The schema checks this in its place.
 */
const PICKED_PHOTO = "images/picked.jpg";
const withPickedPhotos = (value: unknown): unknown => mapStrings(value, (text) => (text.startsWith("blob:") ? PICKED_PHOTO : text));

/** A schema without its optional wrapper, which carries no fields or items of its own. */
const inner = (schema: z.ZodType): z.ZodType => (schema instanceof z.ZodOptional ? inner(schema.unwrap() as z.ZodType) : schema);
/** The label the editor gives a schema (its own title, or its optional wrapper's). */
const titleOf = (schema: z.ZodType | undefined): string | undefined =>
  schema && (schema.meta()?.title ?? (schema === inner(schema) ? undefined : titleOf(inner(schema))));

/** ["founders", 2, "name"] → "Featured founders › Founder 3 › Name": the labels on the way to the field, items counted from 1. */
export function labelsAlong(schema: z.ZodType, path: readonly PropertyKey[]): string {
  const labels: string[] = [];
  let node: z.ZodType | undefined = schema;
  for (const segment of path) {
    const parent: z.ZodType | undefined = node && inner(node);
    if (parent instanceof z.ZodObject && typeof segment === "string") {
      node = parent.shape[segment] as z.ZodType | undefined;
      labels.push(titleOf(node) ?? segment);
    } else if (parent instanceof z.ZodArray && typeof segment === "number") {
      node = parent.element as z.ZodType;
      labels.push(`${titleOf(node) ?? "Item"} ${segment + 1}`);
    } else {
      node = undefined;
      labels.push(String(segment));
    }
  }
  return labels.join(" › ");
}

/** The file's value as typed, checked by its schema: as it will be saved, with any photo just picked as the editor's copy. */
export function checkFile<K extends ContentFileKey>(file: K, data: unknown): Checked<K> {
  // One file's schema: the union over all files has no call signature TypeScript can pick.
  const schema = contentFiles[file].schema as unknown as z.ZodType<FileValue<K>>;
  const saved = asSaved(data);
  const result = schema.safeParse(withPickedPhotos(saved), { error: operatorWording });
  // The schema changes nothing it accepts but trims it, as asSaved did: the value is what it accepted.
  if (result.success) return { value: saved as FileValue<K> };
  return { problems: result.error.issues.map((issue) => ({ where: labelsAlong(schema, issue.path), message: issue.message })) };
}
