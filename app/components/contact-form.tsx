import { ExternalLink } from "lucide-react";
import type { FormEvent } from "react";
import { newTab } from "~/lib/external";
import { buttonStyles } from "./button-styles";
import { toast } from "./toast/toast-store";

const fieldClass =
  "mt-1.5 block w-full rounded-lg border border-ink/55 bg-white px-3.5 py-2.5 text-ink placeholder:text-ink-soft/70 focus:border-ink focus:outline-2 focus:outline-offset-1 focus:outline-brass-dark";

/** The survey URL's own query parameters, so a script-less GET submission keeps them. */
function hiddenParams(url: string): Array<[string, string]> {
  return URL.canParse(url) ? [...new URL(url).searchParams.entries()] : [];
}

/**
 * Spec §7: the form sends nothing to our server and nothing of what was typed anywhere;
 * it opens the provider's contact survey in a new tab. Fields have no `name`, so even the
 * script-less fallback (a GET to the survey, in a new tab) carries none of their values.
 */
export function ContactForm({ surveyUrl }: { surveyUrl: string }) {
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A blank tab first, cut from this page before it goes anywhere: set after the survey's address was
    // asked for, `opener = null` could come too late (the survey's page, once loaded elsewhere, kept it).
    // "noopener" would cut it too, but then window.open returns null, blocked or not.
    const opened = window.open("", "_blank");
    if (opened) {
      opened.opener = null;
      opened.location.href = surveyUrl;
      event.currentTarget.reset();
      return;
    }
    toast({
      // The only way on to the survey: it stays until dismissed.
      duration: Number.POSITIVE_INFINITY,
      title: "Your browser blocked the new tab",
      description: (
        <a href={surveyUrl} {...newTab} className="font-semibold text-ink underline">
          Open the contact survey
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ),
    });
  }

  return (
    <form
      action={surveyUrl}
      method="get"
      {...newTab}
      onSubmit={onSubmit}
      aria-labelledby="contact-heading"
      className="flex flex-col gap-5 rounded-2xl border border-ink/10 bg-white p-6 shadow-sm sm:p-8"
    >
      <h2 id="contact-heading" className="font-serif text-2xl font-semibold text-ink">
        Get In Touch
      </h2>
      {hiddenParams(surveyUrl).map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      <label className="block text-sm font-medium text-ink">
        Full Name
        <input type="text" required autoComplete="name" className={fieldClass} />
      </label>
      <label className="block text-sm font-medium text-ink">
        Email
        <input type="email" required autoComplete="email" className={fieldClass} />
      </label>
      <label className="block text-sm font-medium text-ink">
        Message
        <textarea required rows={5} className={`${fieldClass} resize-y`} />
      </label>
      <button type="submit" className={`${buttonStyles.primaryLarge} self-start tracking-wide`}>
        CONTACT US
        <ExternalLink aria-hidden="true" className="size-4" />
      </button>
      <p className="text-sm text-ink-soft">Our contact survey opens in a new tab at our membership platform.</p>
    </form>
  );
}
