// What one site (server/site.ts, createSite) hands each React Router request: its calendar, its
// share cards and its public configuration, made from the configuration createSite was given. A
// loader reads them here, never from a process-wide copy, so two sites in one process keep apart.
import { createContext, type RouterContextProvider } from "react-router";
import type { EventsService } from "~/events/server/events.server";
import type { ShareImages } from "~/events/server/share-images.server";
import type { PublicConfig } from "~/lib/public-config";

export type SiteParts = {
  events: EventsService;
  shareImages: ShareImages;
  publicConfig: PublicConfig;
};

export const sitePartsContext = createContext<SiteParts>();

/** The parts of the site that is answering this request. */
export function siteParts(context: Readonly<RouterContextProvider>): SiteParts {
  return context.get(sitePartsContext);
}
