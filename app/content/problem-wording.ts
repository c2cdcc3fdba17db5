// How a problem in content is put to an operator: by the content check (load.server.ts) and by the
// content editor's preview pane (app/preview/), which shows the same words for the value being typed.
import type { z } from "zod";

/** ["founders", 2, "name"] → "founders[2].name" */
export function pathLabel(segments: ReadonlyArray<PropertyKey>): string {
  return segments.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? String(s) : `.${String(s)}`)).join("");
}

// Zod's own words for a missing field ("Invalid input: expected string, received undefined") are
// for developers; an operator needs to hear that the field is required.
export const operatorWording: z.core.$ZodErrorMap = (issue) =>
  issue.code === "invalid_type" && issue.input === undefined ? "required" : undefined;
