// The shape of every file in content/ (at the repository root), as an operator writes it.
// Objects are strict, so a misspelt key ("tagLine") is an error instead of silently ignored text.
import { z } from "zod";

const text = z.string().trim().min(1, "must not be empty");
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" });
const list = <T extends z.ZodType>(item: T, what: string, count: number) =>
  z.array(item).length(count, {
    error: (issue) => `must list exactly ${count} ${what} (the site is designed for ${count}; found ${Array.isArray(issue.input) ? issue.input.length : "none"})`,
  });

// A photo is a file the operator put under content/images/; the build makes its renditions.
const photoPath = z
  .string()
  .trim()
  .regex(/^images\/[\w ./-]+\.(jpe?g|png|webp)$/i, "must be a JPEG, PNG or WebP file under content/images/, e.g. images/jane-doe.jpg")
  .refine((path) => !path.split("/").includes(".."), "must stay inside content/images/");

// The home page's two illustrations ship in public/ (rendered by scripts/render-artwork.js).
const publicImage = z.strictObject({
  src: z.string().regex(/^\/images\/[\w/.-]+\.(webp|avif|jpg|png)$/, "must be a /images/… path in public/"),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  alt: z.string(),
  /** Optional smaller renditions, as an HTML srcset ("/images/x-400w.webp 400w, /images/x.webp 800w"). */
  srcSet: z.string().optional(),
});

const person = {
  name: text,
  title: text,
  description: text,
  photo: photoPath.optional(),
  /** Alt text for the photo; "Portrait of {name}" when omitted. */
  photoAlt: text.optional(),
};

export const founderSchema = z.strictObject({ ...person, company: text, linkedinUrl: httpUrl.optional() });
export const boardMemberSchema = z.strictObject(person);

export const BENEFIT_ICONS = ["users", "newspaper", "calendar", "mic", "badge-percent", "graduation-cap"] as const;
export const benefitSchema = z.strictObject({
  icon: z.enum(BENEFIT_ICONS, { error: `must be one of: ${BENEFIT_ICONS.join(", ")}` }),
  title: text,
  description: text,
});

export const stepSchema = z.strictObject({
  title: text,
  description: text,
  /** How long the step takes, in plain words ("About 15 minutes"). */
  time: text,
  /** What happens at this step, one line each. */
  details: z.array(text).min(1, "must list at least one detail"),
});

const titled = z.strictObject({ title: text, description: text });
/** A page's header lead and its description for search engines and link previews. */
const page = { lead: text, description: text };

// schema.org's NonprofitType values (US, Dutch and UK), for the Organization structured data.
const nonprofitStatus = z
  .string()
  .regex(
    /^(Nonprofit501(a|c([1-9]|1\d|2[0-8])|d|e|f|k|n|q)|Nonprofit527|NonprofitANBI|NonprofitSBBI|CharitableIncorporatedOrganization|LimitedByGuaranteeCharity|UKTrust|UnincorporatedAssociationCharity)$/,
    "must be a schema.org NonprofitType, e.g. Nonprofit501c3",
  );

export const siteSchema = z.strictObject({
  name: text,
  shortName: text,
  tagline: text,
  description: text,
  email: z.email({ error: "must be an e-mail address" }),
  location: text,
  /** The legal non-profit status, as schema.org names it; omit it if there is none. */
  nonprofitStatus: nonprofitStatus.optional(),
  copyrightYear: z.number().int().min(2000).max(2100),
  provider: z.strictObject({
    loginUrl: httpUrl,
    applicationUrl: httpUrl,
    contactSurveyUrl: httpUrl,
  }),
  /** The /events embed; without it the embed follows GOOGLE_CALENDAR_ID. */
  calendar: z.strictObject({ embedUrl: httpUrl.optional() }).optional(),
});

export const homeSchema = z.strictObject({
  heroHeading: text,
  heroText: text,
  lonely: z.strictObject({ heading: text, paragraphs: z.array(text).min(1) }),
  photoTiles: z.array(z.strictObject({ image: publicImage, caption: text })).length(2, "must list exactly 2 photo tiles"),
  callToAction: z.strictObject({ heading: text, text }),
});

export const aboutSchema = z.strictObject({
  title: text,
  ...page,
  mission: text,
  values: z.array(titled).min(1),
  advantage: z.strictObject({ heading: text, paragraphs: z.array(text).min(1) }),
  disclaimer: text,
});

export const portalSchema = z.strictObject({ ...page, features: z.array(titled).min(1) });

export const applySchema = z.strictObject({
  ...page,
  eligibility: z.strictObject({ intro: text, criteria: z.array(titled).min(1) }),
  dues: z.strictObject({ amount: text, details: text }),
  review: z.strictObject({ duration: text, details: text }),
  faq: z.array(z.strictObject({ question: text, answer: text })).min(1),
});

export const contactSchema = z.strictObject({ title: text, ...page, emailNote: text });
export const eventsSchema = z.strictObject(page);

/** Each file of content/, the key its data is known by, and its schema. */
export const contentFiles = {
  site: { file: "site.yaml", schema: siteSchema },
  home: { file: "home.yaml", schema: homeSchema },
  founders: { file: "founders.yaml", schema: z.strictObject({ founders: list(founderSchema, "founders", 6) }), list: "founders" },
  board: { file: "board.yaml", schema: z.strictObject({ board: list(boardMemberSchema, "board members", 7) }), list: "board" },
  benefits: { file: "benefits.yaml", schema: z.strictObject({ benefits: list(benefitSchema, "benefits", 6) }), list: "benefits" },
  steps: { file: "steps.yaml", schema: z.strictObject({ steps: list(stepSchema, "steps", 3) }), list: "steps" },
  about: { file: "about.yaml", schema: aboutSchema },
  portal: { file: "portal.yaml", schema: portalSchema },
  apply: { file: "apply.yaml", schema: applySchema },
  contact: { file: "contact.yaml", schema: contactSchema },
  events: { file: "events.yaml", schema: eventsSchema },
} as const;

type Files = typeof contentFiles;
type FileData<K extends keyof Files> = z.infer<Files[K]["schema"]>;

/** One rendition set of a photo, as the build made it (see app/content/images.server.ts). */
export type Picture = {
  /** Fallback <img> source: the 1x WebP. */
  src: string;
  width: number;
  height: number;
  alt: string;
  sources: Array<{ type: "image/avif" | "image/webp"; candidates: Array<{ url: string; width: number }> }>;
};

type WithPicture<T> = Omit<T, "photo" | "photoAlt"> & { picture?: Picture };

export type FounderEntry = z.infer<typeof founderSchema>;
export type BoardMemberEntry = z.infer<typeof boardMemberSchema>;
export type Founder = WithPicture<FounderEntry>;
export type BoardMember = WithPicture<BoardMemberEntry>;
export type Benefit = z.infer<typeof benefitSchema>;
export type Step = z.infer<typeof stepSchema>;
export type PublicImage = z.infer<typeof publicImage>;

/** The content as the pages read it: lists unwrapped, photos turned into pictures. */
export type Content = {
  site: FileData<"site">;
  home: FileData<"home">;
  founders: Founder[];
  board: BoardMember[];
  benefits: Benefit[];
  steps: Step[];
  about: FileData<"about">;
  portal: FileData<"portal">;
  apply: FileData<"apply">;
  contact: FileData<"contact">;
  events: FileData<"events">;
};

/** The content as validated, before photos are rendered. */
export type RawContent = Omit<Content, "founders" | "board"> & { founders: FounderEntry[]; board: BoardMemberEntry[] };
