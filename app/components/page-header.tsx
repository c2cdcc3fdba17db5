/** The opening band of an inner page: eyebrow, heading, lead text. */
export function PageHeader({ eyebrow, title, lead }: { eyebrow?: string; title: string; lead?: string }) {
  return (
    <header className="border-b border-ink/10 bg-sand/60">
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
        {eyebrow ? <p className="mb-3 text-xs font-semibold tracking-[0.18em] text-brass-dark uppercase">{eyebrow}</p> : null}
        <h1 className="max-w-3xl font-serif text-4xl leading-[1.1] font-semibold tracking-tight text-ink sm:text-5xl">{title}</h1>
        {lead ? <p className="mt-5 max-w-2xl text-lg leading-relaxed text-ink-soft">{lead}</p> : null}
      </div>
    </header>
  );
}

/** A titled content section with the site's spacing. */
export function Section({
  id,
  title,
  eyebrow,
  children,
  className = "",
}: {
  id: string;
  title: string;
  eyebrow?: string;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={`mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20 ${className}`}>
      {eyebrow ? <p className="mb-2 text-xs font-semibold tracking-[0.18em] text-brass-dark uppercase">{eyebrow}</p> : null}
      <h2 id={id} className="mb-10 font-serif text-3xl font-semibold tracking-tight text-ink sm:text-4xl">
        {title}
      </h2>
      {children}
    </section>
  );
}
