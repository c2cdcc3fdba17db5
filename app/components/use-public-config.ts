import { useRouteLoaderData } from "react-router";
import { site } from "~/content";
import { LOCAL_SITE_URL, type PublicConfig } from "~/lib/public-config";

const fallback: PublicConfig = {
  siteUrl: LOCAL_SITE_URL,
  loginUrl: site.provider.loginUrl,
  applicationUrl: site.provider.applicationUrl,
  contactSurveyUrl: site.provider.contactSurveyUrl,
  calendar: { source: "sample" },
};

/** Public URLs as configured on the server (root loader), with the content defaults as a fallback. */
export function usePublicConfig(): PublicConfig {
  const data = useRouteLoaderData<{ config: PublicConfig }>("root");
  return data?.config ?? fallback;
}
