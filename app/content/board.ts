import type { BoardMember } from "./schema";

// SAMPLE DATA: fictional board members. Replace with the real Global Leadership Board.
// Photos go in public/images/people/ (see founders.ts); without one, a monogram is shown.
export const board: BoardMember[] = [
  { name: "Elena Vasquez", title: "Chair", description: "Serial founder with two exits in enterprise software; mentors first-time CEOs." },
  { name: "Marcus Chen", title: "Vice Chair", description: "General partner at an early-stage fund focused on fintech and infrastructure." },
  { name: "Aisha Rahman", title: "Head of Core Groups", description: "Executive coach who has facilitated founder peer groups for over a decade." },
  { name: "Thomas Becker", title: "Head of Programming", description: "Curates the speaker series; formerly ran events at a leading accelerator." },
  { name: "Grace Liu", title: "Head of Membership", description: "Leads the review of every application with a committee of members." },
  { name: "Samuel Adeyemi", title: "Treasurer", description: "CFO of a growth-stage marketplace; keeps the community's books in the open." },
  { name: "Hannah Schwartz", title: "Head of Partnerships", description: "Builds the perks and the preferred investor and vendor database." },
];
