import { z } from "zod";

const text = z.string().trim().min(1);
const httpUrl = z.url({ protocol: /^https?$/ });
// Photos ship with the site: a path under public/, never a remote host.
const localImage = z.object({
  src: z.string().regex(/^\/images\/[\w/.-]+\.(webp|avif|jpg|png)$/, "must be a /images/… path in public/"),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  alt: z.string(),
  /** Optional smaller renditions, as an HTML srcset ("/images/x-400w.webp 400w, /images/x.webp 800w"). */
  srcSet: z.string().optional(),
});

export const founderSchema = z.object({
  name: text,
  title: text,
  company: text,
  description: text,
  image: localImage.optional(),
  linkedinUrl: httpUrl.optional(),
});

export const boardMemberSchema = z.object({
  name: text,
  title: text,
  description: text,
  image: localImage.optional(),
});

export const benefitSchema = z.object({
  icon: z.enum(["users", "newspaper", "calendar", "mic", "badge-percent", "graduation-cap"]),
  title: text,
  description: text,
});

export const stepSchema = z.object({ title: text, description: text });

// schema.org's NonprofitType values (US, Dutch and UK), for the Organization structured data.
const nonprofitStatus = z
  .string()
  .regex(
    /^(Nonprofit501(a|c([1-9]|1\d|2[0-8])|d|e|f|k|n|q)|Nonprofit527|NonprofitANBI|NonprofitSBBI|CharitableIncorporatedOrganization|LimitedByGuaranteeCharity|UKTrust|UnincorporatedAssociationCharity)$/,
    "must be a schema.org NonprofitType, e.g. Nonprofit501c3",
  );

export const siteSchema = z.object({
  name: text,
  shortName: text,
  tagline: text,
  description: text,
  email: z.email(),
  location: text,
  /** The legal non-profit status, as schema.org names it; omit it if there is none. */
  nonprofitStatus: nonprofitStatus.optional(),
  copyrightYear: z.number().int().min(2000),
  defaultSiteUrl: httpUrl,
  provider: z.object({
    loginUrl: httpUrl,
    applicationUrl: httpUrl,
    contactSurveyUrl: httpUrl,
  }),
  calendar: z.object({
    embedUrl: httpUrl,
    timeZone: z.literal("America/New_York"),
    height: z.literal(600),
  }),
});

export const contentSchema = z.object({
  site: siteSchema,
  home: z.object({
    heroHeading: text,
    heroText: text,
    lonely: z.object({ heading: text, paragraphs: z.array(text).min(1) }),
    photoTiles: z.array(z.object({ image: localImage, caption: text })).length(2),
  }),
  founders: z.array(founderSchema).length(6),
  benefits: z.array(benefitSchema).length(6),
  steps: z.array(stepSchema).length(3),
  about: z.object({
    intro: text,
    mission: text,
    values: z.array(z.object({ title: text, description: text })).min(1),
    advantage: z.object({ heading: text, paragraphs: z.array(text).min(1) }),
    disclaimer: text,
  }),
  board: z.array(boardMemberSchema).length(7),
  portalFeatures: z.array(z.object({ title: text, description: text })).min(1),
});

export type Content = z.infer<typeof contentSchema>;
export type Founder = z.infer<typeof founderSchema>;
export type BoardMember = z.infer<typeof boardMemberSchema>;
export type Benefit = z.infer<typeof benefitSchema>;
export type LocalImage = z.infer<typeof localImage>;
