import type { Content } from "./schema";

export const steps: Content["steps"] = [
  {
    title: "Complete the application",
    description: "Tell us about you, your company and what you hope to find in the community. It takes about 15 minutes.",
  },
  {
    title: "Review process",
    description: "A committee of members reviews every application and may invite you to a short conversation.",
  },
  {
    title: "Welcome aboard",
    description: "Once accepted, you join a core group, get access to the member portal and meet the community.",
  },
];
