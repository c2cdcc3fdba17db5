import { ExternalLink } from "lucide-react";
import { buttonStyles } from "~/components/button-styles";
import { PageHeader } from "~/components/page-header";
import { usePublicConfig } from "~/components/use-public-config";
import { steps } from "~/content";
import { newTab } from "~/lib/external";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/apply";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Apply to Join",
    description: "How to join: complete the application, a member committee reviews it, and you are welcomed into a core group.",
    path: "/apply",
    matches,
  });

export default function Apply() {
  const { applicationUrl } = usePublicConfig();
  return (
    <>
      <PageHeader
        eyebrow="Membership"
        title="Apply to Join"
        lead="Membership is by application. Every applicant is reviewed by members, so each room stays worth being in."
      />
      <section aria-labelledby="steps-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        <h2 id="steps-heading" className="mb-10 font-serif text-3xl font-semibold tracking-tight text-ink">
          Three steps to membership
        </h2>
        <ol className="grid gap-6 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="flex flex-col gap-4 rounded-2xl border border-ink/10 bg-white p-7">
              <span
                aria-hidden="true"
                className="grid size-11 place-items-center rounded-full border-2 border-brass font-serif text-lg font-semibold text-ink"
              >
                {index + 1}
              </span>
              <h3 className="font-serif text-xl font-semibold text-ink">
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="leading-relaxed text-ink-soft">{step.description}</p>
            </li>
          ))}
        </ol>
        <div className="mt-12 flex flex-col items-start gap-3">
          <a href={applicationUrl} {...newTab} className={buttonStyles.primaryLarge}>
            Start Application
            <ExternalLink aria-hidden="true" className="size-4" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
          <p className="text-sm text-ink-soft">The application opens on our membership platform in a new tab.</p>
        </div>
      </section>
    </>
  );
}
