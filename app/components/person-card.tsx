import * as Tooltip from "@radix-ui/react-tooltip";
import type { Picture } from "~/content";
import { PORTRAIT } from "~/content/portrait";
import { newTab } from "~/lib/external";
import { monogram } from "./monogram";

type Person = {
  name: string;
  title: string;
  company?: string;
  description: string;
  picture?: Picture;
  linkedinUrl?: string;
};

// The portrait is always PORTRAIT.size CSS px wide (Tailwind's size-40), whatever the viewport.
const PORTRAIT_SIZES = `${PORTRAIT.size}px`;
const srcSet = (candidates: Picture["sources"][number]["candidates"]) => candidates.map((c) => `${c.url} ${c.width}w`).join(", ");

/** A portrait from the build's renditions: AVIF where the browser has it, else WebP; lazy, below the fold. */
export function Portrait({ picture }: { picture: Picture }) {
  return (
    // The image is a block: inline, it sits on the text baseline with a gap below it (4 px) that a
    // monogram has not, and names in one row came out at different heights.
    <picture>
      {picture.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={srcSet(source.candidates)} sizes={PORTRAIT_SIZES} />
      ))}
      <img
        src={picture.src}
        srcSet={srcSet(picture.sources.find((s) => s.type === "image/webp")?.candidates ?? [])}
        sizes={PORTRAIT_SIZES}
        width={picture.width}
        height={picture.height}
        alt={picture.alt}
        loading="lazy"
        decoding="async"
        className="block size-40 rounded-xl bg-sand object-cover"
      />
    </picture>
  );
}

/** A founder or board member: photo (or monogram), name, role and a short bio. */
export function PersonCard({ person, headingLevel: Heading = "h3" }: { person: Person; headingLevel?: "h3" | "h4" }) {
  return (
    <article className="flex h-full flex-col gap-4 rounded-2xl border border-ink/10 bg-white p-6 shadow-[0_1px_2px_rgba(20,33,61,0.04)]">
      <div className="flex flex-col gap-4">
        {person.picture ? (
          <Portrait picture={person.picture} />
        ) : (
          <span
            aria-hidden="true"
            data-testid="monogram"
            className="grid size-40 place-items-center rounded-xl bg-sand font-serif text-5xl font-semibold text-ink"
          >
            {monogram(person.name)}
          </span>
        )}
        <div className="min-w-0">
          <Heading className="font-serif text-lg leading-snug font-semibold text-ink">{person.name}</Heading>
          <p className="text-sm text-ink-soft">
            {person.title}
            {person.company ? (
              <>
                {", "}
                <span className="font-medium text-ink">{person.company}</span>
              </>
            ) : null}
          </p>
        </div>
      </div>
      <p className="text-[0.9375rem] leading-relaxed text-ink-soft">{person.description}</p>
      {person.linkedinUrl ? (
        <Tooltip.Root>
          <Tooltip.Trigger asChild>
            <a
              href={person.linkedinUrl}
              {...newTab}
              className="mt-auto inline-flex items-center gap-1.5 self-start rounded text-sm font-medium text-brass-dark hover:underline focus-visible:outline-2 focus-visible:outline-brass-dark"
            >
              <LinkedInGlyph />
              LinkedIn
              <span className="sr-only">profile of {person.name} (opens in a new tab)</span>
            </a>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content sideOffset={6} className="rounded-md bg-ink px-2.5 py-1.5 text-xs text-paper shadow-lg">
              {person.name} on LinkedIn
              <Tooltip.Arrow className="fill-ink" />
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      ) : null}
    </article>
  );
}

function LinkedInGlyph() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="currentColor">
      <path d="M20.45 20.45h-3.56v-5.57c0-1.33-.02-3.04-1.85-3.04-1.85 0-2.14 1.45-2.14 2.94v5.67H9.35V9h3.41v1.56h.05c.48-.9 1.64-1.85 3.37-1.85 3.6 0 4.27 2.37 4.27 5.46v6.28zM5.34 7.43a2.06 2.06 0 1 1 0-4.13 2.06 2.06 0 0 1 0 4.13zM7.12 20.45H3.56V9h3.56v11.45zM22.22 0H1.77C.79 0 0 .77 0 1.73v20.54C0 23.23.79 24 1.77 24h20.45c.98 0 1.78-.77 1.78-1.73V1.73C24 .77 23.2 0 22.22 0z" />
    </svg>
  );
}
