/** Where the site is when SITE_URL is unset: right on a laptop, wrong anywhere else. */
export const LOCAL_SITE_URL = "http://localhost:3000";

/** The calendar on /events: what is embedded (if anything) and where the events come from. */
export type CalendarConfig = {
  /** Google Calendar's embed for GOOGLE_CALENDAR_ID, or content/site.yaml's calendar.embedUrl. */
  embedUrl?: string;
  source: "google" | "ics" | "sample";
};

/** What the browser may know of the configuration: public URLs only. */
export type PublicConfig = {
  siteUrl: string;
  loginUrl: string;
  applicationUrl: string;
  contactSurveyUrl: string;
  calendar: CalendarConfig;
  /**
   * A preview instance of a change (Render's IS_PULL_REQUEST), not the live site: its pages say so and
   * siteUrl is its own address. Only ever `true`, and absent on the live site, whose pages so stay as they were.
   */
  preview?: true;
};
