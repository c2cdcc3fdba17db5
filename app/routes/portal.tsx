import { usePublicConfig } from "~/components/use-public-config";
import { portal } from "~/content";
import { pageMeta } from "~/lib/seo";
import { PortalPage } from "~/pages/portal-page";
import type { Route } from "./+types/portal";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Member Portal",
    description: portal.description,
    path: "/portal",
    matches,
  });

export default function Portal() {
  const { loginUrl } = usePublicConfig();
  return <PortalPage portal={portal} loginUrl={loginUrl} />;
}
