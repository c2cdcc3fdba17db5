// Where each file of content/ shows on the site: the page the content editor links an entry to
// ("View on Live Site", its `preview_path`) and the page its preview pane stands for (app/preview/).
// site.yaml feeds every page's header and footer: it links to the home page.
import type { contentFiles } from "./schema";

export type ContentFileKey = keyof typeof contentFiles;

export const filePages = {
  site: "/",
  home: "/",
  founders: "/",
  board: "/about",
  benefits: "/",
  steps: "/apply",
  about: "/about",
  portal: "/portal",
  apply: "/apply",
  contact: "/contact",
  events: "/events",
} as const satisfies Record<ContentFileKey, string>;
