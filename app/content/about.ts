import type { Content } from "./schema";

export const about: Content["about"] = {
  intro:
    "We are a community of founders, run by alumni volunteers, built on the belief that no founder should have to build alone.",
  mission:
    "Our mission is to give every member a place to belong, a circle of peers who tell the truth, and the connections to build lasting companies.",
  values: [
    { title: "Confidentiality", description: "What is shared in the circle stays in the circle." },
    { title: "Generosity", description: "Members give before they ask: time, introductions, experience." },
    { title: "Candor", description: "We value honest counsel over polite encouragement." },
    { title: "Selectivity", description: "A vetted membership keeps every room worth being in." },
  ],
  advantage: {
    heading: "The Columbia Advantage",
    paragraphs: [
      "Our members share a connection to Columbia University, one of the world's great centers of learning, and to the entrepreneurial energy of New York City.",
      "That shared background means trust comes faster, introductions go further, and the alumni network opens doors across every industry.",
    ],
  },
  disclaimer:
    "Founders Circle is a not-for-profit organization run independently by alumni. It is not affiliated with, sponsored by or endorsed by Columbia University.",
};
