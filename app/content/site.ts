import type { Content } from "./schema";

// The community's identity and the external provider's addresses.
// MEMBER_LOGIN_URL, APPLICATION_URL, CONTACT_SURVEY_URL and SITE_URL override the URLs at run time.
export const site: Content["site"] = {
  name: "Founders Circle",
  shortName: "FC",
  tagline: "The private network for founders.",
  description:
    "A highly vetted membership community for founders seeking belonging, support and connection. Not-for-profit and run independently by alumni.",
  email: "hello@founderscircle.example.org",
  location: "New York, NY",
  // Sample value: set your organisation's real status (https://schema.org/NonprofitType), or remove it.
  nonprofitStatus: "Nonprofit501c3",
  copyrightYear: 2024,
  defaultSiteUrl: "http://localhost:3000",
  provider: {
    loginUrl: "https://members.example.org/login",
    applicationUrl: "https://members.example.org/survey/apply",
    contactSurveyUrl: "https://members.example.org/survey/get-in-touch",
  },
  calendar: {
    embedUrl:
      "https://calendar.google.com/calendar/embed?src=en.usa%23holiday%40group.v.calendar.google.com&ctz=America%2FNew_York",
    timeZone: "America/New_York",
    height: 600,
  },
};
