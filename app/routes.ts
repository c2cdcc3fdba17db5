import { type RouteConfig, index, route } from "@react-router/dev/routes";
import { notFoundRoute, siteRoutes } from "./site-routes";

// The table lives in app/site-routes.ts, which the server's cache policy and the sitemap read too.
export default [
  ...siteRoutes.map(({ pattern, file, id }) => (pattern === "" ? index(file) : route(pattern, file, id ? { id } : {}))),
  route(notFoundRoute.pattern, notFoundRoute.file),
] satisfies RouteConfig;
