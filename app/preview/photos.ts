// The photos of the people a volunteer is editing (founders.yaml, board.yaml), as the preview shows
// them: a photo picked in this session (saved or not) at once, from the editor's copy; one this
// deployment built, as its pages show it; one saved since, from the editor's copy once it has fetched
// it. A photo the browser cannot draw (a HEIC, outside Safari) gets the site's fallback, the initials,
// and a line saying the build converts it.
import { useEffect, useState } from "react";
import type { Picture } from "~/content/schema";
import { PORTRAIT, portraitAlt } from "~/content/portrait";

/** What the editor knows of a file (its `getAsset`): a blob: URL once it has the bytes, and the file itself if picked in this session. */
export type EditorAsset = { url: string; fileObj?: File };
export type AssetLookup = (path: string) => EditorAsset | undefined;

type PersonEntry = { name: string; photo?: string; photoAlt?: string };
export type PersonShown<T extends PersonEntry> = Omit<T, "photo" | "photoAlt"> & { picture?: Picture };

/** The editor's own copy of a file: a photo just picked is one until it is saved (check.ts). */
const editorCopy = /^blob:/;

/** Whether this browser can draw an image, by URL, once known (for the page's life: a blob: URL's bytes never change). */
const drawable = new Map<string, boolean>();

/** Asks the browser to decode each image not yet tried; renders again when an answer comes. */
function useDrawable(urls: readonly string[]): (url: string) => boolean | undefined {
  const [, answered] = useState(0);
  const key = urls.join("\n");
  useEffect(() => {
    let live = true;
    for (const url of key ? key.split("\n") : []) {
      if (drawable.has(url)) continue;
      const image = new Image();
      image.src = url;
      image
        .decode()
        .then(
          () => drawable.set(url, true),
          () => drawable.set(url, false),
        )
        .finally(() => live && answered((count) => count + 1));
    }
    return () => {
      live = false;
    };
  }, [key]);
  return (url) => drawable.get(url);
}

/** How often, and how many times, the preview looks again for a saved photo's bytes. */
const FETCH_CHECK = { everyMs: 200, times: 50 };

/**
 * Renders again shortly while `waiting`, up to FETCH_CHECK's limit: the editor fetches a saved photo's
 * bytes after handing out its asset, and fills in its blob: URL telling no one; an asset asked for
 * after that has it at once.
 */
function useEditorFetch(waiting: boolean): void {
  const [looks, lookAgain] = useState(0);
  useEffect(() => {
    if (!waiting || looks >= FETCH_CHECK.times) return;
    const timer = setTimeout(() => lookAgain((count) => count + 1), FETCH_CHECK.everyMs);
    return () => clearTimeout(timer);
  }, [waiting, looks]);
}

/** One file as a card's picture, at the card's size (the build would make its renditions). */
const pictureOf = (url: string, alt: string, source: string): Picture => ({
  src: url,
  width: PORTRAIT.size,
  height: PORTRAIT.size,
  alt,
  sources: [],
  source,
});

/** A URL of our own for a file the editor holds, one per file for the page's life. */
const fileUrls = new WeakMap<File, string>();
const urlOfFile = (file: File) => fileUrls.get(file) ?? fileUrls.set(file, URL.createObjectURL(file)).get(file)!;

/** A file picked in this session, saved or not: the photo as it is now, whatever the build made of an older one by that name. */
function pickedUrl(photo: string, asset: EditorAsset | undefined): string | undefined {
  if (editorCopy.test(photo)) return photo;
  return asset?.fileObj ? urlOfFile(asset.fileObj) : undefined;
}

/**
 * The people with the picture each card shows, and a line for each photo shown as initials because
 * this browser cannot draw it. `built` holds this deployment's pictures by the photo they were made from.
 */
export function usePeoplePhotos<T extends PersonEntry>(
  people: readonly T[],
  getAsset: AssetLookup,
  built: ReadonlyMap<string, Picture>,
): { people: Array<PersonShown<T>>; notes: string[] } {
  const found = people.map(({ photo }) => {
    if (!photo) return {};
    const asset = editorCopy.test(photo) ? undefined : getAsset(photo);
    const picked = pickedUrl(photo, asset);
    if (picked) return { url: picked };
    const picture = built.get(photo);
    if (picture) return { picture };
    // Saved since this deployment was built: the editor's copy, once it has fetched it.
    if (asset && editorCopy.test(asset.url)) return { url: asset.url };
    return { fetching: asset !== undefined };
  });
  useEditorFetch(found.some(({ fetching }) => fetching));
  const isDrawable = useDrawable(found.flatMap(({ url }) => (url ? [url] : [])));
  const notes: string[] = [];
  const shown = people.map((person, index) => {
    const { photo, photoAlt: _alt, ...rest } = person;
    const { picture, url } = found[index]!;
    if (picture) return { ...rest, picture };
    if (!photo || !url) return rest;
    // Shown at once; if the browser then fails to decode it, the initials.
    if (isDrawable(url) === false) {
      notes.push(
        `${person.name}'s photo cannot be shown in this browser (an iPhone's HEIC photo, most likely), so the card shows the initials here. The site converts the photo when it builds, and the page shows it.`,
      );
      return rest;
    }
    return { ...rest, picture: pictureOf(url, portraitAlt(person), photo) };
  });
  return { people: shown, notes };
}
