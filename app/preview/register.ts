// The content editor's preview pane (issue 50): the page a file feeds, drawn as a volunteer types by
// the site's own components with the site's built stylesheet. The editor's page loads this module
// beside the editor's (server/admin.ts) and calls registerPreviews before CMS.init. It is built on its
// own, with its own copy of the site's React (app/preview/build.server.ts), so the site's pages load
// exactly the files they did.
// First, before any schema is made (it keeps zod from trying eval, which the editor's policy refuses).
import "./no-eval";
import type CMS from "@sveltia/cms";
import stylesheet from "virtual:site-stylesheet";
import type { ContentFileKey } from "~/content/file-pages";
import { contentFiles } from "~/content/schema";
import { previewTemplate } from "./template";

export function registerPreviews(cms: typeof CMS): void {
  cms.registerPreviewStyle(stylesheet);
  // A template per file, by the file's name in the editor's configuration (editor-config.server.ts).
  for (const file of Object.keys(contentFiles) as ContentFileKey[]) cms.registerPreviewTemplate(file, previewTemplate(file));
}
