// The file formats a founder's or board member's photo may be in. The content check (schema.ts),
// the editor's upload picker (editor-config.server.ts) and the photo pipeline (photo.server.ts)
// all read this list, so a format is added or dropped here alone.
const FORMATS = [
  { name: "JPEG", extensions: ["jpg", "jpeg"], type: "image/jpeg" },
  { name: "PNG", extensions: ["png"], type: "image/png" },
  { name: "WebP", extensions: ["webp"], type: "image/webp" },
  // An iPhone's and a Mac's photos (HEVC in HEIF); decoded at build by libheif (heic.server.ts).
  { name: "HEIC", extensions: ["heic"], type: "image/heic" },
  { name: "HEIF", extensions: ["heif"], type: "image/heif" },
] as const;

const names = FORMATS.map((format) => format.name);

/** "JPEG, PNG, WebP, HEIC or HEIF", as messages and hints say it. */
export const PHOTO_FORMAT_NAMES = `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;

/** A photo file's extension, any case: /\.(jpg|jpeg|…)$/i. */
export const PHOTO_EXTENSION = new RegExp(`\\.(${FORMATS.flatMap((format) => format.extensions).join("|")})$`, "i");

/**
 * The file picker's `accept`: the media types, and the extensions too, because a browser that
 * cannot show HEIC (Chrome or Firefox on Windows or Linux) may not know its type either.
 */
export const PHOTO_ACCEPT = [...FORMATS.map((format) => format.type), ...FORMATS.flatMap((format) => format.extensions.map((ext) => `.${ext}`))].join(",");
