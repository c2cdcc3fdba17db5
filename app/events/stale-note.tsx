import { formatInstant } from "./format-date";

/** Said above events served from the last good copy while the calendar cannot be reached. */
export function StaleNote({ what, updatedAt }: { what: string; updatedAt: string }) {
  return (
    <p className="rounded-xl border border-brass/40 bg-sand/60 px-4 py-3 text-sm text-ink">
      {`The calendar could not be reached just now. Showing ${what} as last updated `}
      <time dateTime={updatedAt}>{formatInstant(Date.parse(updatedAt))}</time>.
    </p>
  );
}
