// Kept apart from schema.ts so the browser bundle can read it without pulling in zod.
/** Portraits on founder and board cards: 160 CSS px squares, rendered at 1x and 2x. */
export const PORTRAIT = { size: 160, densities: [1, 2] } as const;

/** A portrait's alt text: the content's description of the photo, else the person's name. */
export const portraitAlt = ({ name, photoAlt }: { name: string; photoAlt?: string }) => photoAlt ?? `Portrait of ${name}`;
