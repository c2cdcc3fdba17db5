import { site } from "~/content";
import { getEnv } from "~/env.server";
import type { PublicConfig } from "~/lib/public-config";


export function getPublicConfig(): PublicConfig {
  const env = getEnv();
  return {
    siteUrl: (env.SITE_URL ?? site.defaultSiteUrl).replace(/\/+$/, ""),
    loginUrl: env.MEMBER_LOGIN_URL ?? site.provider.loginUrl,
    applicationUrl: env.APPLICATION_URL ?? site.provider.applicationUrl,
    contactSurveyUrl: env.CONTACT_SURVEY_URL ?? site.provider.contactSurveyUrl,
  };
}
