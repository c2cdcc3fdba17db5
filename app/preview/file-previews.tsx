// What each file of content/ feeds, drawn by the site's own components from the value being typed;
// the rest of the page from this deployment's content (app/content/, as built). The parts that need
// what no file holds (the events, from the calendar) are a placeholder that says where they come from.
import type { ComponentType } from "react";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import * as built from "~/content";
import type { ContentFileKey } from "~/content/file-pages";
import type { Picture } from "~/content/schema";
import { AboutPage, BoardSection } from "~/pages/about-page";
import { ApplyPage, StepsSection } from "~/pages/apply-page";
import { ContactPage } from "~/pages/contact-page";
import { EventsHeader } from "~/pages/events-header";
import { BenefitsSection, FoundersSection, HomePage } from "~/pages/home-page";
import { PortalPage } from "~/pages/portal-page";
import type { FileValue } from "./check";
import { PreviewNotes } from "./notes";
import { usePeoplePhotos, type AssetLookup } from "./photos";

export type FilePreviewProps<K extends ContentFileKey> = { value: FileValue<K>; getAsset: AssetLookup };

/** This deployment's portraits, by the photo each was made from. */
const builtPictures: ReadonlyMap<string, Picture> = new Map(
  [...built.founders, ...built.board].flatMap(({ picture }) => (picture ? [[picture.source, picture] as const] : [])),
);
const { provider } = built.site;

function FoundersPreview({ value, getAsset }: FilePreviewProps<"founders">) {
  const { people, notes } = usePeoplePhotos(value.founders, getAsset, builtPictures);
  return (
    <>
      <PreviewNotes notes={notes} />
      <FoundersSection founders={people} />
    </>
  );
}

function BoardPreview({ value, getAsset }: FilePreviewProps<"board">) {
  const { people, notes } = usePeoplePhotos(value.board, getAsset, builtPictures);
  return (
    <>
      <PreviewNotes notes={notes} />
      <BoardSection board={people} />
    </>
  );
}

/** The events themselves are the calendar's: a placeholder where their list goes, saying so. */
function EventsPreview({ value }: FilePreviewProps<"events">) {
  return (
    <>
      <EventsHeader events={value} />
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <section aria-labelledby="events-list-heading" className="rounded-2xl border-2 border-dashed border-ink/20 p-8">
          <h2 id="events-list-heading" className="font-serif text-3xl font-semibold tracking-tight text-ink">
            Upcoming events
          </h2>
          <p className="mt-3 max-w-2xl leading-relaxed text-ink-soft">
            The events appear here on the site, from the community&apos;s calendar, with the shared calendar below them. They are not part
            of this page&apos;s text: to add or change one, change it in the calendar.
          </p>
        </section>
      </div>
    </>
  );
}

export const filePreviews: { [K in ContentFileKey]: ComponentType<FilePreviewProps<K>> } = {
  site: ({ value }) => (
    <>
      <SiteHeader site={value} loginUrl={value.provider.loginUrl} />
      <div aria-hidden="true" className="h-24" />
      <SiteFooter site={value} />
    </>
  ),
  home: ({ value }) => <HomePage home={value} founders={built.founders} benefits={built.benefits} location={built.site.location} />,
  founders: FoundersPreview,
  board: BoardPreview,
  benefits: ({ value }) => <BenefitsSection benefits={value.benefits} />,
  steps: ({ value }) => <StepsSection steps={value.steps} applicationUrl={provider.applicationUrl} />,
  about: ({ value }) => <AboutPage about={value} board={built.board} />,
  portal: ({ value }) => <PortalPage portal={value} loginUrl={provider.loginUrl} />,
  apply: ({ value }) => <ApplyPage apply={value} steps={built.steps} applicationUrl={provider.applicationUrl} />,
  contact: ({ value }) => <ContactPage contact={value} site={built.site} contactSurveyUrl={provider.contactSurveyUrl} />,
  events: EventsPreview,
};
