import type { Content } from "./schema";

export const portalFeatures: Content["portalFeatures"] = [
  { title: "Member directory & networking tools", description: "Find and message members by industry, stage and expertise." },
  { title: "Exclusive content", description: "Recordings of the speaker series, playbooks and member-only newsletters." },
  { title: "Event registration & calendar", description: "Reserve your seat at upcoming events and sync them to your calendar." },
  { title: "Partner discounts & vendor database", description: "Software perks and the preferred investor and vendor database." },
];
