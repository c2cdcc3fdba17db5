import type { Benefit } from "./schema";

export const benefits: Benefit[] = [
  {
    icon: "users",
    title: "Monthly core groups",
    description: "Meet every month with the same 8 founders and an executive facilitator, in strict confidence.",
  },
  {
    icon: "newspaper",
    title: "Digital community",
    description: "A private member space and newsletters with introductions, asks and opportunities.",
  },
  {
    icon: "calendar",
    title: "Tailored events",
    description: "Virtual and in-person events designed around the stage and sector of our members.",
  },
  {
    icon: "mic",
    title: "Speakers & education",
    description: "A speaker series and workshops with operators, investors and experts.",
  },
  {
    icon: "badge-percent",
    title: "Exclusive perks",
    description: "Software discounts and a preferred investor and vendor database.",
  },
  {
    icon: "graduation-cap",
    title: "Alumni network",
    description: "Access to a wide network of alumni founders, operators and advisors.",
  },
];
