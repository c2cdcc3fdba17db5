import { about } from "./about";
import { benefits } from "./benefits";
import { board } from "./board";
import { founders } from "./founders";
import { home } from "./home";
import { portalFeatures } from "./portal";
import type { Content } from "./schema";
import { site } from "./site";
import { steps } from "./steps";

// Everything an operator edits lives in this folder; the build validates it against schema.ts.
export const content: Content = {
  site,
  home,
  founders,
  benefits,
  steps,
  about,
  board,
  portalFeatures,
};

export { about, benefits, board, founders, home, portalFeatures, site, steps };
