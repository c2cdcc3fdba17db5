// The contact page, drawn from contact.yaml, the site's address and the membership platform's contact
// survey: by its route (app/routes/contact.tsx) and by the content editor's preview (app/preview/).
import { Mail, MapPin } from "lucide-react";
import { ContactForm } from "~/components/contact-form";
import { PageHeader } from "~/components/page-header";
import type { Content } from "~/content/schema";

export type ContactContent = {
  contact: Content["contact"];
  site: Pick<Content["site"], "email" | "location">;
  contactSurveyUrl: string;
};

export function ContactPage({ contact, site, contactSurveyUrl }: ContactContent) {
  return (
    <>
      <PageHeader eyebrow="Contact Us" title={contact.title} lead={contact.lead} />
      {/* Side by side from 1024 px: on an upright tablet the address column was too narrow for the
          e-mail address, which broke in the middle. */}
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 sm:px-6 sm:py-20 lg:grid-cols-[1fr_1.3fr]">
        <div className="flex flex-col gap-6">
          <p className="text-lg leading-relaxed text-ink-soft">{contact.emailNote}</p>
          <ul className="flex flex-col gap-3 text-ink">
            <li className="flex items-center gap-3">
              <Mail aria-hidden="true" className="size-5 text-brass-dark" />
              <a href={`mailto:${site.email}`} className="wrap-anywhere underline-offset-4 hover:underline">
                {site.email}
              </a>
            </li>
            <li className="flex items-center gap-3">
              <MapPin aria-hidden="true" className="size-5 text-brass-dark" />
              {site.location}
            </li>
          </ul>
        </div>
        <ContactForm surveyUrl={contactSurveyUrl} />
      </div>
    </>
  );
}
