/** Attributes for every link that opens a new tab. */
export const newTab = { target: "_blank", rel: "noopener noreferrer" } as const;
