/** What the browser may know of the configuration: public URLs only. */
export type PublicConfig = {
  siteUrl: string;
  loginUrl: string;
  applicationUrl: string;
  contactSurveyUrl: string;
};
