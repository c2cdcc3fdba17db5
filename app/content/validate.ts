import { content } from "./index";
import { contentSchema } from "./schema";

export function contentProblems(value: unknown = content): string[] {
  const result = contentSchema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => `content.${issue.path.join(".")}: ${issue.message}`);
}

export function assertValidContent(): void {
  const problems = contentProblems();
  if (problems.length > 0) {
    throw new Error(`Site content in app/content/ is invalid:\n  ${problems.join("\n  ")}`);
  }
}
