import { MapPin } from "lucide-react";
import { newTab } from "~/lib/external";
import { mapSearchUrl } from "./links";

const locationLinkClass = "underline decoration-ink/30 underline-offset-4 hover:decoration-ink";

/** The "Where" group of an event's details list, with its pin and map link (the event's page). */
export function WhereItem({ location }: { location: string }) {
  return (
    <div>
      <dt className="sr-only">Where</dt>
      {/* The pin goes inside the dd: a dl's groups may hold only dt and dd. */}
      <dd className="flex min-w-0 items-start gap-1.5">
        <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brass-dark" />
        <span className="min-w-0 wrap-anywhere">
          <Location value={location} />
        </span>
      </dd>
    </div>
  );
}

/** A place links to a map search, a URL to itself; "Online …" has nowhere to point. */
export function Location({ value }: { value: string }) {
  if (/^https?:\/\//i.test(value)) {
    return (
      <a href={value} {...newTab} className={`${locationLinkClass} break-all`}>
        {value}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    );
  }
  if (/^(online|virtual)\b/i.test(value)) return <>{value}</>;
  return (
    <a href={mapSearchUrl(value)} {...newTab} className={locationLinkClass}>
      {value}
      <span className="sr-only"> (map, opens in a new tab)</span>
    </a>
  );
}
