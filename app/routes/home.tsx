import { benefits, founders, home, site } from "~/content";
import { pageMeta } from "~/lib/seo";
import { HomePage } from "~/pages/home-page";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({ title: site.tagline.replace(/\.$/, ""), description: site.description, path: "/", matches });

export default function Home() {
  return <HomePage home={home} founders={founders} benefits={benefits} location={site.location} />;
}
