import { type RouteConfig, index, route } from "@react-router/dev/routes";
import { notFoundRoute, siteRoutes } from "./site-routes";

// The table lives in app/site-routes.ts, which the server's cache policy and the sitemap read too.
export default [
  ...siteRoutes.map(({ pattern, file }) => (pattern === "" ? index(file) : route(pattern, file))),
  route(notFoundRoute.pattern, notFoundRoute.file),
] satisfies RouteConfig;
