import { CheckCircle2, ExternalLink } from "lucide-react";
import { buttonStyles } from "~/components/button-styles";
import { PageHeader } from "~/components/page-header";
import { usePublicConfig } from "~/components/use-public-config";
import { portal } from "~/content";
import { newTab } from "~/lib/external";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/portal";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Member Portal",
    description: portal.description,
    path: "/portal",
    matches,
  });

export default function Portal() {
  const { loginUrl } = usePublicConfig();
  return (
    <>
      <PageHeader eyebrow="Members" title="Member Portal" lead={portal.lead} />
      <section aria-labelledby="portal-features" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        <h2 id="portal-features" className="mb-8 font-serif text-3xl font-semibold tracking-tight text-ink">
          In the portal
        </h2>
        <ul className="grid gap-5 sm:grid-cols-2">
          {portal.features.map((feature) => (
            <li key={feature.title} className="flex gap-4 rounded-2xl border border-ink/10 bg-white p-6">
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
