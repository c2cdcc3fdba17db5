// The shape of every file in content/ (at the repository root), as an operator writes it.
// Objects are strict, so a misspelt key ("tagLine") is an error instead of silently ignored text.
// Each field's `.meta()` title and description are its label and hint in the content editor at
// /admin, whose configuration is generated from this file (app/content/editor-config.server.ts).
import { z } from "zod";
import { PHOTO_EXTENSION, PHOTO_FORMAT_NAMES } from "./photo-formats";

declare module "zod" {
  interface GlobalMeta {
    /** How the content editor shows a text: one line unless "multiline"; "photo" picks an image under content/images/. */
    editor?: "multiline" | "photo";
  }
}

const text = z.string().trim().min(1, "must not be empty");
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" });
const list = <T extends z.ZodType>(item: T, what: string, count: number) =>
  z.array(item).length(count, {
    error: (issue) => `must list exactly ${count} ${what} (the site is designed for ${count}; found ${Array.isArray(issue.input) ? issue.input.length : "none"})`,
  });

/** A one-line text with its editor label and hint. */
const line = (title: string, description?: string) => text.meta({ title, description });
/** A text of a sentence or more: several lines in the editor. */
const prose = (title: string, description?: string) => text.meta({ title, description, editor: "multiline" });
const link = (title: string, description?: string) => httpUrl.meta({ title, description });

// A photo is a file the operator put under content/images/; the build makes its renditions.
const photoPath = z
  .string()
  .trim()
  .regex(
    new RegExp(`^images/[\\w ./-]+${PHOTO_EXTENSION.source}`, PHOTO_EXTENSION.flags),
    `must be a ${PHOTO_FORMAT_NAMES} file under content/images/, e.g. images/jane-doe.jpg`,
  )
  .refine((path) => !path.split("/").includes(".."), "must stay inside content/images/");

// The home page's two illustrations ship in public/ (rendered by scripts/render-artwork.js).
const publicImage = z
  .strictObject({
    src: z
      .string()
      .regex(/^\/images\/[\w/.-]+\.(webp|avif|jpg|png)$/, "must be a /images/… path in public/")
      .meta({ title: "File", description: "A file in public/images/, e.g. /images/tiles/core-group.webp." }),
    width: z.number().int().positive().meta({ title: "Width (pixels)" }),
    height: z.number().int().positive().meta({ title: "Height (pixels)" }),
    alt: z.string().meta({ title: "Description for screen readers (alt text)" }),
    srcSet: z
      .string()
      .optional()
      .meta({ title: "Smaller versions (srcset)", description: 'Optional, as an HTML srcset: "/images/x-400w.webp 400w, /images/x.webp 800w".' }),
  })
  .meta({ title: "Illustration" });

const person = {
  name: line("Name"),
  title: line("Title", "Their role, e.g. Co-founder & CEO."),
  description: prose("Description", "One or two sentences."),
  photo: photoPath
    .optional()
    .meta({
      title: "Photo",
      description: `Any ${PHOTO_FORMAT_NAMES} from a phone or camera (an iPhone's HEIC too), any size: the site crops it square and makes small versions. Without one, the card shows the initials.`,
      editor: "photo",
    }),
  photoAlt: line("Photo description (alt text)", 'For screen readers; "Portrait of {name}" when left empty.').optional(),
};

export const founderSchema = z
  .strictObject({
    ...person,
    company: line("Company"),
    linkedinUrl: link("LinkedIn profile", "The profile's full address, starting with https://").optional(),
  })
  .meta({ title: "Founder" });
export const boardMemberSchema = z.strictObject(person).meta({ title: "Board member" });

export const BENEFIT_ICONS = ["users", "newspaper", "calendar", "mic", "badge-percent", "graduation-cap"] as const;
export const benefitSchema = z
  .strictObject({
    icon: z.enum(BENEFIT_ICONS, { error: `must be one of: ${BENEFIT_ICONS.join(", ")}` }).meta({ title: "Icon" }),
    title: line("Title"),
    description: prose("Description"),
  })
  .meta({ title: "Benefit" });

export const stepSchema = z
  .strictObject({
    title: line("Title"),
    description: prose("Description"),
    time: line("How long it takes", 'In plain words, e.g. "About 15 minutes".'),
    details: z
      .array(prose("Detail"))
      .min(1, "must list at least one detail")
      .meta({ title: "What happens", description: "One line each." }),
  })
  .meta({ title: "Step" });

const titled = z.strictObject({ title: line("Title"), description: prose("Description") }).meta({ title: "Item" });
/** A page's header lead and its description for search engines and link previews. */
const page = {
  lead: prose("Lead", "The short text under the page's heading."),
  description: prose("Description for search engines", "Shown by search engines and link previews."),
};
const paragraphs = z.array(prose("Paragraph")).min(1).meta({ title: "Paragraphs" });

// schema.org's NonprofitType values (US, Dutch and UK), for the Organization structured data.
const nonprofitStatus = z
  .string()
  .regex(
    /^(Nonprofit501(a|c([1-9]|1\d|2[0-8])|d|e|f|k|n|q)|Nonprofit527|NonprofitANBI|NonprofitSBBI|CharitableIncorporatedOrganization|LimitedByGuaranteeCharity|UKTrust|UnincorporatedAssociationCharity)$/,
    "must be a schema.org NonprofitType, e.g. Nonprofit501c3",
  );

export const siteSchema = z
  .strictObject({
    name: line("Name of the community"),
    shortName: line("Short name", "Two or three letters for the logo's badge."),
    tagline: line("Tagline", "Shown in the footer of every page and as the home page's title in search results."),
    description: prose("Description", "For search engines and link previews."),
    email: z.email({ error: "must be an e-mail address" }).meta({ title: "E-mail address" }),
    location: line("Location", "e.g. New York, NY."),
    nonprofitStatus: nonprofitStatus.optional().meta({
      title: "Legal status",
      description: "Your non-profit status as schema.org names it (schema.org/NonprofitType), e.g. Nonprofit501c3. Leave empty if there is none. The shipped value is a sample.",
    }),
    copyrightYear: z.number().int().min(2000).max(2100).meta({ title: "Copyright year" }),
    provider: z
      .strictObject({
        loginUrl: link("Member login page"),
        applicationUrl: link("Application form"),
        contactSurveyUrl: link("Contact form"),
      })
      .meta({
        title: "Membership platform",
        description: "Addresses at the membership platform. The variables MEMBER_LOGIN_URL, APPLICATION_URL and CONTACT_SURVEY_URL override them without a rebuild.",
      }),
    calendar: z
      .strictObject({
        embedUrl: link(
          "Embedded calendar address",
          "Only to show a different calendar than GOOGLE_CALENDAR_ID's: Google Calendar → Integrate calendar → Embed code, the address inside src=\"…\".",
        ).optional(),
      })
      .optional()
      .meta({ title: "Calendar on /events" }),
  })
  .meta({ title: "Site: name, contact, platform" });

export const homeSchema = z
  .strictObject({
    heroHeading: line("Heading"),
    heroText: prose("Text under the heading"),
    lonely: z
      .strictObject({ heading: line("Heading"), paragraphs })
      .meta({ title: "'Starting a company is lonely' section" }),
    photoTiles: z
      .array(z.strictObject({ image: publicImage, caption: line("Caption") }).meta({ title: "Photo tile" }))
      .length(2, "must list exactly 2 photo tiles")
      .meta({
        title: "Photo tiles",
        description: "The two illustrations at the bottom of the page; the files are made by node scripts/render-artwork.js.",
      }),
    callToAction: z
      .strictObject({ heading: line("Heading"), text: prose("Text") })
      .meta({ title: "Closing band", description: "The band above the footer, next to the 'Apply to Join' button." }),
  })
  .meta({ title: "Home page" });

export const aboutSchema = z
  .strictObject({
    title: line("Heading"),
    ...page,
    mission: prose("Mission"),
    values: z.array(titled).min(1).meta({ title: "Values" }),
    advantage: z.strictObject({ heading: line("Heading"), paragraphs }).meta({ title: "The Columbia Advantage block" }),
    disclaimer: prose("Disclaimer", "Must say that the community is not-for-profit and not affiliated with the university."),
  })
  .meta({ title: "About page" });

export const portalSchema = z
  .strictObject({ ...page, features: z.array(titled).min(1).meta({ title: "What members find in the portal" }) })
  .meta({ title: "Member portal page" });

export const applySchema = z
  .strictObject({
    ...page,
    eligibility: z
      .strictObject({ intro: line("Introduction"), criteria: z.array(titled).min(1).meta({ title: "Criteria" }) })
      .meta({ title: "Who can apply" }),
    dues: z.strictObject({ amount: line("Amount"), details: prose("Details") }).meta({ title: "Dues" }),
    review: z.strictObject({ duration: line("Duration"), details: prose("Details") }).meta({ title: "Review" }),
    faq: z
      .array(z.strictObject({ question: line("Question"), answer: prose("Answer") }).meta({ title: "Question" }))
      .min(1)
      .meta({ title: "Frequently asked questions", description: "Also published for search engines (FAQPage)." }),
  })
  .meta({ title: "Apply page", description: "The three steps are in Application steps. The shipped rules, dues and timings are samples." });

export const contactSchema = z
  .strictObject({ title: line("Heading"), ...page, emailNote: prose("Note about e-mail") })
  .meta({ title: "Contact page", description: "The e-mail address and location come from Site." });
export const eventsSchema = z
  .strictObject(page)
  .meta({ title: "Events page", description: "The events themselves come from the calendar." });

/** A file holding one fixed-length list, e.g. founders.yaml's `founders:`. */
const listFile = <K extends string, T extends z.ZodType>(key: K, item: T, what: string, count: number, title: string, description: string) =>
  z.strictObject({ [key]: list(item, what, count).meta({ title, description }) } as Record<K, z.ZodArray<T>>).meta({ title, description });

/** Each file of content/, the key its data is known by, and its schema. */
export const contentFiles = {
  site: { file: "site.yaml", schema: siteSchema },
  home: { file: "home.yaml", schema: homeSchema },
  founders: {
    file: "founders.yaml",
    schema: listFile("founders", founderSchema, "founders", 6, "Featured founders", "The six founders on the home page (exactly 6)."),
    list: "founders",
  },
  board: {
    file: "board.yaml",
    schema: listFile("board", boardMemberSchema, "board members", 7, "Leadership board", "The Global Leadership Board on /about (exactly 7)."),
    list: "board",
  },
  benefits: {
    file: "benefits.yaml",
    schema: listFile("benefits", benefitSchema, "benefits", 6, "Member benefits", "The six benefits on the home page (exactly 6)."),
    list: "benefits",
  },
  steps: {
    file: "steps.yaml",
    schema: listFile("steps", stepSchema, "steps", 3, "Application steps", "The three steps to membership on /apply (exactly 3)."),
    list: "steps",
  },
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
  /** The photo it was made from, as the content file names it ("images/…"): the editor's preview shows this picture for it. */
  source: string;
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
