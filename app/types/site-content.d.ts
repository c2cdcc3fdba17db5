// The module app/content/plugin.server.ts builds from content/*.yaml: validated, photos rendered.
declare module "virtual:site-content" {
  // A top-level import would make this file a module and this declaration an (invalid) augmentation.
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  type Content = import("~/content/schema").Content;
  export const site: Content["site"];
  export const home: Content["home"];
  export const founders: Content["founders"];
  export const board: Content["board"];
  export const benefits: Content["benefits"];
  export const steps: Content["steps"];
  export const about: Content["about"];
  export const portal: Content["portal"];
  export const apply: Content["apply"];
  export const contact: Content["contact"];
  export const events: Content["events"];
}
