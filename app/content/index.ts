// The operator's content (content/*.yaml at the repository root), validated and with photos
// rendered by the build (plugin.server.ts). Pages read it from here; nothing here is edited by hand.
export { about, apply, benefits, board, contact, events, founders, home, portal, site, steps } from "virtual:site-content";
export type { Benefit, BoardMember, Content, Founder, Picture, Step } from "./schema";
