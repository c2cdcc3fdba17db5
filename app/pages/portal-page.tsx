// The member portal page, drawn from portal.yaml and the membership platform's login page: by its
// route (app/routes/portal.tsx) and by the content editor's preview (app/preview/). Its list is keyed
// by position, as on the home page (app/pages/home-page.tsx).
import { CheckCircle2, ExternalLink } from "lucide-react";
import { buttonStyles } from "~/components/button-styles";
import { PageHeader } from "~/components/page-header";
import type { Content } from "~/content/schema";
import { newTab } from "~/lib/external";

export function PortalPage({ portal, loginUrl }: { portal: Content["portal"]; loginUrl: string }) {
  return (
    <>
      <PageHeader eyebrow="Members" title="Member Portal" lead={portal.lead} />
      <section aria-labelledby="portal-features" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        <h2 id="portal-features" className="mb-8 font-serif text-3xl font-semibold tracking-tight text-ink">
          In the portal
        </h2>
        <ul className="grid gap-5 sm:grid-cols-2">
          {portal.features.map((feature, index) => (
            <li key={index} className="flex gap-4 rounded-2xl border border-ink/10 bg-white p-6">
              <CheckCircle2 aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-brass-dark" />
              <div>
                <h3 className="font-semibold text-ink">{feature.title}</h3>
                <p className="mt-1 leading-relaxed text-ink-soft">{feature.description}</p>
              </div>
            </li>
          ))}
        </ul>
        <a href={loginUrl} {...newTab} className={`${buttonStyles.primaryLarge} mt-12`}>
          Access Member Portal
          <ExternalLink aria-hidden="true" className="size-4" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </section>
    </>
  );
}
