// The apply page, drawn from apply.yaml and steps.yaml and the membership platform's application
// form: by its route (app/routes/apply.tsx) and by the content editor's preview (app/preview/). Lists
// are keyed by position, as on the home page (app/pages/home-page.tsx).
import { CheckCircle2, Clock, ExternalLink } from "lucide-react";
import { buttonStyles } from "~/components/button-styles";
import { PageHeader } from "~/components/page-header";
import type { Content, Step } from "~/content/schema";
import { newTab } from "~/lib/external";

// What an applicant asks before starting (who qualifies, what it costs, how long it takes), then
// the spec's three steps and its 'Start Application' button, then the remaining questions.
export function ApplyPage({ apply, steps, applicationUrl }: { apply: Content["apply"]; steps: Step[]; applicationUrl: string }) {
  return (
    <>
      <PageHeader eyebrow="Membership" title="Apply to Join" lead={apply.lead} />

      <section aria-labelledby="eligibility-heading" className="mx-auto max-w-6xl px-4 pt-16 sm:px-6 sm:pt-20">
        <h2 id="eligibility-heading" className="font-serif text-3xl font-semibold tracking-tight text-ink">
          Who can apply
        </h2>
        <p className="mt-3 text-lg text-ink-soft">{apply.eligibility.intro}</p>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {apply.eligibility.criteria.map((criterion, index) => (
            <li key={index} className="flex gap-3">
              <CheckCircle2 aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-brass-dark" />
              <div>
                <h3 className="font-semibold text-ink">{criterion.title}</h3>
                <p className="mt-1.5 leading-relaxed text-ink-soft">{criterion.description}</p>
              </div>
            </li>
          ))}
        </ul>
        <dl className="mt-12 grid gap-6 md:grid-cols-2">
          <div className="rounded-2xl bg-sand/70 p-6">
            <dt className="text-xs font-semibold tracking-[0.16em] text-brass-dark uppercase">Dues</dt>
            <dd className="mt-2">
              <p className="font-serif text-2xl font-semibold text-ink">{apply.dues.amount}</p>
              <p className="mt-2 leading-relaxed text-ink-soft">{apply.dues.details}</p>
            </dd>
          </div>
          <div className="rounded-2xl bg-sand/70 p-6">
            <dt className="text-xs font-semibold tracking-[0.16em] text-brass-dark uppercase">Review takes</dt>
            <dd className="mt-2">
              <p className="font-serif text-2xl font-semibold text-ink">{apply.review.duration}</p>
              <p className="mt-2 leading-relaxed text-ink-soft">{apply.review.details}</p>
            </dd>
          </div>
        </dl>
      </section>

      <StepsSection steps={steps} applicationUrl={applicationUrl} />

      <section aria-labelledby="faq-heading" className="border-t border-ink/10 bg-white">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
          <h2 id="faq-heading" className="mb-8 font-serif text-3xl font-semibold tracking-tight text-ink">
            Frequently asked questions
          </h2>
          <dl className="grid gap-x-12 gap-y-8 md:grid-cols-2">
            {apply.faq.map((item, index) => (
              <div key={index}>
                <dt className="font-semibold text-ink">{item.question}</dt>
                <dd className="mt-2 leading-relaxed text-ink-soft">{item.answer}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>
    </>
  );
}

/** The three steps to membership (steps.yaml), and the button that starts an application. */
export function StepsSection({ steps, applicationUrl }: { steps: Step[]; applicationUrl: string }) {
  return (
    <section aria-labelledby="steps-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
      <h2 id="steps-heading" className="mb-10 font-serif text-3xl font-semibold tracking-tight text-ink">
        Three steps to membership
      </h2>
      {/* Three columns from 1024 px; on a tablet each step's text was a few words a line. */}
      <ol className="grid gap-6 lg:grid-cols-3">
        {steps.map((step, index) => (
          <li key={index} className="flex flex-col gap-4 rounded-2xl border border-ink/10 bg-white p-7">
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
            <p className="inline-flex items-center gap-1.5 text-sm font-medium text-brass-dark">
              <Clock aria-hidden="true" className="size-4" />
              {step.time}
            </p>
            <p className="leading-relaxed text-ink-soft">{step.description}</p>
            <ul className="flex list-disc flex-col gap-2 pl-5 text-[0.9375rem] leading-relaxed text-ink-soft marker:text-brass">
              {step.details.map((detail, detailIndex) => (
                <li key={detailIndex}>{detail}</li>
              ))}
            </ul>
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
  );
}
