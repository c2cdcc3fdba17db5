// The about page, drawn from about.yaml and board.yaml: by its route (app/routes/about.tsx) and by the
// content editor's preview (app/preview/). Lists are keyed by position, as on the home page
// (app/pages/home-page.tsx): the preview changes their texts at each keystroke.
import { PageHeader, Section } from "~/components/page-header";
import { PersonCard } from "~/components/person-card";
import type { BoardMember, Content } from "~/content/schema";

export function AboutPage({ about, board }: { about: Content["about"]; board: BoardMember[] }) {
  return (
    <>
      <PageHeader eyebrow="About Us" title={about.title} lead={about.lead} />

      <Section id="mission-heading" title="Mission & Values">
        <p className="mb-10 max-w-3xl font-serif text-2xl leading-snug text-ink">{about.mission}</p>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {about.values.map((value, index) => (
            <li key={index} className="border-t-2 border-brass pt-4">
              <h3 className="font-semibold text-ink">{value.title}</h3>
              <p className="mt-1.5 leading-relaxed text-ink-soft">{value.description}</p>
            </li>
          ))}
        </ul>
      </Section>

      <BoardSection board={board} />

      <section aria-labelledby="advantage-heading" className="bg-ink text-paper">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-16 sm:px-6 sm:py-20 md:grid-cols-2 md:gap-16">
          <h2 id="advantage-heading" className="font-serif text-3xl font-semibold tracking-tight sm:text-4xl">
            {about.advantage.heading}
          </h2>
          <div className="flex flex-col gap-4 text-lg leading-relaxed text-paper/85">
            {about.advantage.paragraphs.map((p, index) => (
              <p key={index}>{p}</p>
            ))}
          </div>
        </div>
      </section>

      <aside aria-label="Disclaimer" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <p className="max-w-3xl rounded-xl border border-ink/15 bg-white p-5 text-sm leading-relaxed text-ink-soft">{about.disclaimer}</p>
      </aside>
    </>
  );
}

/** The Global Leadership Board (board.yaml). */
export function BoardSection({ board }: { board: BoardMember[] }) {
  return (
    <section aria-labelledby="board-heading" className="bg-sand/60">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        <h2 id="board-heading" className="mb-10 font-serif text-3xl font-semibold tracking-tight text-ink sm:text-4xl">
          Global Leadership Board
        </h2>
        {/* Seven people: rows of four and three (two on tablets), the short row centered. */}
        <ul className="flex flex-wrap justify-center gap-6">
          {board.map((member, index) => (
            <li key={index} className="w-full sm:w-[calc(50%-0.75rem)] lg:w-[calc(25%-1.125rem)]">
              <PersonCard person={member} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
