import { usePublicConfig } from "~/components/use-public-config";
import { apply, steps } from "~/content";
import { faqPageJsonLd, jsonLdScript } from "~/lib/json-ld";
import { pageMeta } from "~/lib/seo";
import { ApplyPage } from "~/pages/apply-page";
import type { Route } from "./+types/apply";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({ title: "Apply to Join", description: apply.description, path: "/apply", matches });

export default function Apply() {
  const { applicationUrl } = usePublicConfig();
  return (
    <>
      <ApplyPage apply={apply} steps={steps} applicationUrl={applicationUrl} />
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdScript(faqPageJsonLd(apply.faq)) }} />
    </>
  );
}
