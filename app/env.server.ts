import { z } from "zod";

const httpUrl = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "must be an absolute http(s) URL",
  });

// Unset and empty are the same thing for an operator.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

export const envSchema = z.object({
  NODE_ENV: optional(z.enum(["development", "production", "test"])).default("production"),
  PORT: optional(z.coerce.number().int().min(0).max(65535)).default(3000),
  HOST: optional(z.string().min(1)).default("0.0.0.0"),
  SITE_URL: optional(httpUrl),
  MEMBER_LOGIN_URL: optional(httpUrl),
  APPLICATION_URL: optional(httpUrl),
  CONTACT_SURVEY_URL: optional(httpUrl),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses the environment, naming every bad variable (never echoing values, which may be secrets). */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`);
  throw new EnvError(`Invalid configuration in the environment:\n${lines.join("\n")}`);
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
