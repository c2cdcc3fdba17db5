import { Eye } from "lucide-react";
import { usePublicConfig } from "./use-public-config";

/** The banner's accessible name: a landmark of its own, so a screen reader lists it and can go to it. */
export const PREVIEW_BANNER_LABEL = "Preview of a change";

/**
 * On a preview instance of a change (Render's IS_PULL_REQUEST, app/config.server.ts), the first thing
 * on every page says that this is not the live site. Server HTML (no script needed); nothing on the
 * live site, whose configuration has no `preview` key. Paper on brass-dark: 5.9:1.
 */
export function PreviewBanner() {
  const { preview } = usePublicConfig();
  if (!preview) return null;
  return (
    <section aria-label={PREVIEW_BANNER_LABEL} className="bg-brass-dark text-paper">
      <p className="mx-auto flex max-w-6xl items-start gap-2 px-4 py-2 text-sm sm:items-center sm:px-6">
        <Eye aria-hidden="true" className="mt-0.5 size-4 shrink-0 sm:mt-0" />
        <span>
          <strong className="font-semibold">Preview of a change, not the live site.</strong> Visitors see it only once it is published.
        </span>
      </p>
    </section>
  );
}
