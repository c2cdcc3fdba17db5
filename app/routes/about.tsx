import { about, board } from "~/content";
import { pageMeta } from "~/lib/seo";
import { AboutPage } from "~/pages/about-page";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "About Us",
    description: about.description,
    path: "/about",
    matches,
  });

export default function About() {
  return <AboutPage about={about} board={board} />;
}
