import { usePublicConfig } from "~/components/use-public-config";
import { contact, site } from "~/content";
import { pageMeta } from "~/lib/seo";
import { ContactPage } from "~/pages/contact-page";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Contact Us",
    description: contact.description,
    path: "/contact",
    matches,
  });

export default function Contact() {
  const { contactSurveyUrl } = usePublicConfig();
  return <ContactPage contact={contact} site={site} contactSurveyUrl={contactSurveyUrl} />;
}
