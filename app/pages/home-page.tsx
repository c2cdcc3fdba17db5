// The home page, drawn from its content (home.yaml, founders.yaml, benefits.yaml and the site's
// location): by its route (app/routes/home.tsx) from the built content, and by the content editor's
// preview (app/preview/) from what a volunteer is typing. Lists are keyed by position: the preview
// renames an item at each keystroke, and a key by position keeps its card (and photo) in place.
import { ArrowRight } from "lucide-react";
import { BenefitIcon } from "~/components/benefit-icon";
import { buttonStyles } from "~/components/button-styles";
import { Section } from "~/components/page-header";
import { PageLink } from "~/components/page-link";
import { PersonCard } from "~/components/person-card";
import type { Benefit, Content, Founder } from "~/content/schema";

export type HomeContent = { home: Content["home"]; founders: Founder[]; benefits: Benefit[]; location: string };

export function HomePage({ home, founders, benefits, location }: HomeContent) {
  return (
    <>
      <section aria-labelledby="hero-heading" className="relative overflow-hidden bg-ink text-paper">
        <div aria-hidden="true" className="hero-rings pointer-events-none absolute inset-0" />
        <div className="relative mx-auto max-w-6xl px-4 py-20 sm:px-6 sm:py-28 lg:py-32">
          <p className="mb-5 text-xs font-semibold tracking-[0.2em] text-brass-light uppercase">By application · {location}</p>
          <h1
            id="hero-heading"
            className="max-w-3xl font-serif text-[2.5rem] leading-[1.05] font-semibold tracking-tight sm:text-6xl lg:text-7xl"
          >
            {home.heroHeading}
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-paper/80 sm:text-xl">{home.heroText}</p>
          <div className="mt-10 flex flex-wrap items-center gap-4">
            <PageLink to="/apply" className={buttonStyles.light}>
              Apply to Join
              <ArrowRight aria-hidden="true" className="size-4" />
            </PageLink>
            <PageLink
              to="/about"
              className="rounded text-paper/85 underline-offset-4 hover:text-paper hover:underline focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-paper"
            >
              About the community
            </PageLink>
          </div>
        </div>
      </section>

      <FoundersSection founders={founders} />

      <section aria-labelledby="lonely-heading" className="bg-sand/70">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-16 sm:px-6 sm:py-20 md:grid-cols-2 md:gap-16">
          <h2 id="lonely-heading" className="font-serif text-3xl leading-tight font-semibold tracking-tight text-ink sm:text-4xl">
            {home.lonely.heading}
          </h2>
          <div className="flex flex-col gap-4 text-lg leading-relaxed text-ink-soft">
            {home.lonely.paragraphs.map((p, index) => (
              <p key={index}>{p}</p>
            ))}
          </div>
        </div>
      </section>

      <BenefitsSection benefits={benefits} />

      <section aria-label="Life in the community" className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">
        <ul className="grid gap-6 md:grid-cols-2">
          {home.photoTiles.map((tile, index) => (
            <li key={index}>
              <figure className="overflow-hidden rounded-2xl bg-ink">
                <img
                  src={tile.image.src}
                  srcSet={tile.image.srcSet}
                  sizes="(min-width: 1152px) 540px, (min-width: 768px) 46vw, 92vw"
                  width={tile.image.width}
                  height={tile.image.height}
                  alt={tile.image.alt}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[4/3] h-auto w-full object-cover"
                />
                <figcaption className="px-5 py-4 font-serif text-lg text-paper">{tile.caption}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="cta-heading" className="border-t border-ink/10 bg-white">
        <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-16 sm:px-6 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 id="cta-heading" className="font-serif text-3xl font-semibold tracking-tight text-ink">
              {home.callToAction.heading}
            </h2>
            <p className="mt-2 text-ink-soft">{home.callToAction.text}</p>
          </div>
          <PageLink to="/apply" className={buttonStyles.primaryLarge}>
            Apply to Join
          </PageLink>
        </div>
      </section>
    </>
  );
}

/** The six featured founders (founders.yaml). */
export function FoundersSection({ founders }: { founders: Founder[] }) {
  return (
    <Section id="founders-heading" eyebrow="Our members" title="Featured founders">
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {founders.map((founder, index) => (
          <li key={index}>
            <PersonCard person={founder} />
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** The six member benefits (benefits.yaml). */
export function BenefitsSection({ benefits }: { benefits: Benefit[] }) {
  return (
    <Section id="benefits-heading" eyebrow="Membership" title="Member Benefits">
      <ul className="grid gap-x-10 gap-y-12 sm:grid-cols-2 lg:grid-cols-3">
        {benefits.map((benefit, index) => (
          <li key={index} className="flex flex-col gap-3">
            <span className="grid size-12 place-items-center rounded-full bg-ink text-paper">
              <BenefitIcon name={benefit.icon} />
            </span>
            <h3 className="font-serif text-xl font-semibold text-ink">{benefit.title}</h3>
            <p className="leading-relaxed text-ink-soft">{benefit.description}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
