import type { Content } from "./schema";

export const home: Content["home"] = {
  heroHeading: "Join the private network for founders",
  heroText:
    "A highly vetted membership community for founders seeking belonging, support and connection.",
  lonely: {
    heading: "Starting a company is lonely",
    paragraphs: [
      "Every founder carries decisions that few people around them can weigh in on. The hiring call you can't discuss with your team, the board question you can't take home, the month when nothing works.",
      "Our members meet founders who have been there: a small, trusted circle that shows up every month, and a wider network that opens doors when you need them.",
    ],
  },
  photoTiles: [
    {
      image: {
        src: "/images/tiles/core-group.webp",
        srcSet: "/images/tiles/core-group-400w.webp 400w, /images/tiles/core-group.webp 800w",
        width: 800,
        height: 600,
        alt: "Illustration: eight founders around a table",
      },
      caption: "Monthly core groups of eight founders",
    },
    {
      image: {
        src: "/images/tiles/evening-salon.webp",
        srcSet: "/images/tiles/evening-salon-400w.webp 400w, /images/tiles/evening-salon.webp 800w",
        width: 800,
        height: 600,
        alt: "Illustration: the New York skyline at dusk above a gathering",
      },
      caption: "Speaker evenings in New York",
    },
  ],
};
