import { data } from "react-router";
import { NotFoundCard } from "~/components/not-found-card";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({ title: "Page Not Found", description: "This page does not exist.", matches });

// Unknown paths answer a real 404, not a 200 with an error card.
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundCard />;
}

export function ErrorBoundary() {
  return <NotFoundCard />;
}
