import type { Content } from "~/content/schema";
import { cx } from "~/lib/cx";
import { PageLink } from "./page-link";

export type LogoSite = Pick<Content["site"], "name" | "shortName">;

/** The community's mark: its initials in a ring, with the name beside it. */
export function Logo({ site, tone = "dark", className }: { site: LogoSite; tone?: "dark" | "light"; className?: string }) {
  return (
    <PageLink
      to="/"
      className={cx(
        "inline-flex items-center gap-2.5 rounded-md focus-visible:outline-2 focus-visible:outline-offset-2",
        // The focus ring needs 3:1 against the background the logo sits on.
        tone === "dark" ? "focus-visible:outline-brass-dark" : "focus-visible:outline-paper",
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cx(
          "grid size-9 shrink-0 place-items-center rounded-full border-2 font-serif text-sm font-semibold tracking-wide",
          tone === "dark" ? "border-ink text-ink" : "border-paper text-paper",
        )}
      >
        {site.shortName}
      </span>
      <span
        className={cx("font-serif text-lg font-semibold tracking-tight whitespace-nowrap", tone === "dark" ? "text-ink" : "text-paper")}
      >
        {site.name}
      </span>
    </PageLink>
  );
}
