// The servers' environments the tests start them with, each defined once. A test adds what it is
// about ({ ...NO_SOURCE_NO_PROXY, METRICS_PORT: "0" }); the machine's own environment never decides
// which calendar a test server reads.

/** The bundled sample calendar, whatever the machine's environment says. */
export const NO_SOURCE = { GOOGLE_CALENDAR_ID: "", GOOGLE_API_KEY: "", CALENDAR_ICS_URL: "", GOOGLE_CALENDAR_API_URL: "" };

/** The sample calendar, and no proxy trusted: every request is the loopback client it comes from. */
export const NO_SOURCE_NO_PROXY = { ...NO_SOURCE, TRUST_PROXY: "" };

/** An iCalendar feed (a fake's, on loopback) as the only source. */
export const icsSource = (url: string) => ({ ...NO_SOURCE, CALENDAR_ICS_URL: url });

/** Every test request comes from loopback: the rate limits are lifted unless a test sets them. */
export const LIFTED_RATE_LIMITS = {
  RATE_LIMIT_PER_MINUTE: "10000000",
  PAGE_RATE_LIMIT_PER_MINUTE: "10000000",
  SPECULATIVE_RATE_LIMIT_PER_MINUTE: "10000000",
};

/** The run's shared server (tests/setup/shared-server.ts): the sample calendar, a public SITE_URL, nothing optional. */
export const SHARED_SERVER_ENV = {
  ...NO_SOURCE_NO_PROXY,
  SITE_URL: "https://founders.example.org",
  MEMBER_LOGIN_URL: "",
  APPLICATION_URL: "",
  CONTACT_SURVEY_URL: "",
  CONTENT_REPOSITORY: "",
  METRICS_PORT: "",
};
