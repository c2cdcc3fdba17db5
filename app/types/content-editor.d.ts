// The module app/content/editor-plugin.server.ts provides: where the content editor's files are served.
declare module "virtual:content-editor" {
  /** Sveltia CMS's version, as installed (pinned exactly in package.json). */
  export const version: string;
  /** URL path of its module, e.g. "/assets/sveltia-cms-0.221.1/index.js". */
  export const entry: string;
  /**
   * The preview pane's module (app/preview/register.ts) and the Immutable.js module the editor imports
   * by its bare name for preview templates, as built with the client (app/preview/build.server.ts);
   * none in development.
   */
  export const preview: { script: string; immutable: string } | undefined;
}

// The site's built stylesheet, for the preview pane (app/preview/build.server.ts provides it).
declare module "virtual:site-stylesheet" {
  /** Its URL path, e.g. "/assets/app-DCvyzo4k.css". */
  const stylesheet: string;
  export default stylesheet;
}
