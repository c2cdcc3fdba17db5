// The preview pane's own React root, with the site's React, inside the element the editor's template
// gives it (template.ts): the editor's React draws that one element, this root everything in it, so
// no component ever meets the other copy of React. Each keystroke renders the page again here, and
// React changes only what changed (a photo stays loaded).
import * as Tooltip from "@radix-ui/react-tooltip";
import { createRoot } from "react-dom/client";
import { MemoryRouter } from "react-router";
import { filePages, type ContentFileKey } from "~/content/file-pages";
import { checkFile } from "./check";
import { filePreviews, type FilePreviewProps } from "./file-previews";
import { DescriptionNote, ProblemsPanel } from "./notes";
import type { AssetLookup } from "./photos";

export type PaneInput = { data: unknown; getAsset: AssetLookup };
export type Pane = { show: (input: PaneInput) => void; unmount: () => void };

function FilePreview<K extends ContentFileKey>({ file, data, getAsset }: PaneInput & { file: K }) {
  const checked = checkFile(file, data);
  if (checked.problems) return <ProblemsPanel problems={checked.problems} />;
  // The map's entry for this file (TypeScript cannot follow K through the indexed access).
  const Preview = filePreviews[file] as unknown as (props: FilePreviewProps<K>) => React.ReactNode;
  const { description } = checked.value as { description?: unknown };
  return (
    <>
      <Preview value={checked.value} getAsset={getAsset} />
      {typeof description === "string" ? <DescriptionNote description={description} /> : null}
    </>
  );
}

/** Mounts the preview of `file` in `container`; `show` draws it from the value being typed. */
export function mountPane(container: HTMLElement, file: ContentFileKey): Pane {
  const root = createRoot(container);
  return {
    show: ({ data, getAsset }) =>
      root.render(
        // The page's links resolve as on the site, the page's own marked current; nothing here is for
        // clicking (inert): it is a picture of the page, whose links and menus work on the site.
        <MemoryRouter initialEntries={[filePages[file]]}>
          <Tooltip.Provider>
            <div inert>
              <FilePreview file={file} data={data} getAsset={getAsset} />
            </div>
          </Tooltip.Provider>
        </MemoryRouter>,
      ),
    unmount: () => root.unmount(),
  };
}
