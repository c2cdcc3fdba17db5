import { PageLink } from "~/components/page-link";
import { monthPagePath, type ArchiveMonth } from "./archive";
import { UNDATED } from "./month-groups";

/** Each month with events, newest first, under its year (events without a date last): every event is a click or two from here. */
export function MonthNav({ months, current }: { months: readonly ArchiveMonth[]; current?: string }) {
  const groups: { year: string; months: ArchiveMonth[] }[] = [];
  for (const month of months) {
    const year = month.key === UNDATED ? "" : month.key.slice(0, 4);
    const last = groups.at(-1);
    if (last?.year === year) last.months.push(month);
    else groups.push({ year, months: [month] });
  }
  return (
    <nav aria-labelledby="months-heading" className="flex flex-col gap-5">
      <h2 id="months-heading" className="font-serif text-2xl font-semibold text-ink">
        Every event, month by month
      </h2>
      {groups.map(({ year, months: ofYear }) => (
        <div key={year || UNDATED} className="flex flex-col gap-2 sm:flex-row sm:gap-6">
          <h3 className="w-12 shrink-0 pt-1.5 text-xs font-semibold tracking-[0.18em] text-brass-dark uppercase">
            {year || <span className="sr-only">No date yet</span>}
          </h3>
          <ul className="flex flex-wrap gap-2">
            {ofYear.map((month) => (
              <li key={month.key}>
                <PageLink
                  to={monthPagePath(month.key)}
                  discover="none"
                  aria-current={month.key === current ? "page" : undefined}
                  className="archive-chip"
                >
                  {month.key === UNDATED ? month.label : month.label.replace(/ \d{4}$/, "")}
                  <span className="sr-only">{month.key === UNDATED ? "" : ` ${year}`}: </span>
                  <span>
                    {month.count}
                    <span className="sr-only">{month.count === 1 ? " event" : " events"}</span>
                  </span>
                </PageLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
