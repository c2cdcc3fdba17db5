// The module app/content/editor-plugin.server.ts provides: where the content editor's files are served.
declare module "virtual:content-editor" {
  /** Sveltia CMS's version, as installed (pinned exactly in package.json). */
  export const version: string;
  /** URL path of its module, e.g. "/assets/sveltia-cms-0.221.1/index.js". */
  export const entry: string;
}
