import { PageLink } from "./page-link";
import { buttonStyles } from "./button-styles";

/** Spec §8: the unknown-route card. */
export function NotFoundCard() {
  return (
    <div className="mx-auto flex max-w-6xl justify-center px-4 py-24 sm:px-6">
      <div className="w-full max-w-md rounded-2xl border border-ink/10 bg-white p-8 shadow-sm">
        <h1 className="font-serif text-2xl font-semibold text-ink">404 Page Not Found</h1>
        <p className="mt-3 text-ink-soft">Did you forget to add the page to the router?</p>
        <PageLink to="/" className={`${buttonStyles.primary} mt-6`}>
          Back to the homepage
        </PageLink>
      </div>
    </div>
  );
}
