// What the preview pane says besides the page: lines about what it shows differently from the site,
// the schema's messages in place of a page it cannot draw, and the text only search engines show.
import type { Problem } from "./check";

/** Lines above the page, about what it shows here differently from the site (a photo the browser cannot draw). */
export function PreviewNotes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <aside aria-label="About this preview" className="mx-auto flex max-w-6xl flex-col gap-2 px-4 pt-6 sm:px-6">
      {notes.map((note) => (
        <p key={note} className="rounded-xl border border-brass/50 bg-white p-4 text-sm leading-relaxed text-ink-soft">
          {note}
        </p>
      ))}
    </aside>
  );
}

/** In place of the page, when the schema refuses the value: its messages, as the content check gives them. */
export function ProblemsPanel({ problems }: { problems: readonly Problem[] }) {
  return (
    <section aria-labelledby="preview-problems" className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h2 id="preview-problems" className="font-serif text-2xl font-semibold text-ink">
        The page cannot be shown with this yet
      </h2>
      <p className="mt-2 leading-relaxed text-ink-soft">
        The site would not build with it. Once this is put right, the page shows here again:
      </p>
      <ul className="mt-5 flex flex-col gap-3">
        {problems.map(({ where, message }, index) => (
          <li key={index} className="rounded-xl border border-ink/15 bg-white p-4 text-ink">
            {where ? <span className="font-semibold">{where}: </span> : null}
            {message}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A page's description for search engines and link previews, which no page shows. */
export function DescriptionNote({ description }: { description: string }) {
  return (
    <aside aria-label="For search engines" className="mx-auto max-w-6xl px-4 pb-12 sm:px-6">
      <div className="max-w-2xl rounded-xl border border-ink/15 bg-white p-5 text-sm leading-relaxed">
        <p className="text-xs font-semibold tracking-[0.16em] text-brass-dark uppercase">Search engines and link previews show</p>
        <p className="mt-2 text-ink-soft">{description}</p>
      </div>
    </aside>
  );
}
