import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("apply", "routes/apply.tsx"),
  route("about", "routes/about.tsx"),
  route("contact", "routes/contact.tsx"),
  route("events", "routes/events.tsx"),
  route("portal", "routes/portal.tsx"),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  route("robots.txt", "routes/robots.txt.ts"),
  route("api/calendar/events", "routes/api.calendar.events.ts"),
  route("api/calendar/events/:id.ics", "routes/api.calendar.event-ics.ts"),
  route("api/calendar/feed.ics", "routes/api.calendar.feed.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
