// Each event's 1200×630 share card (og:image): satori lays the card out and turns its text into
// paths, resvg rasterises the SVG to PNG. Fonts and emoji come from packages in node_modules,
// only those the card's text needs (share-fonts.server.ts, share-emoji.server.ts); no browser and
// no download at run time. Runs in the drawing worker (share-image-worker.server.ts), so it
// imports nothing of the app but types.
import { renderAsync } from "@resvg/resvg-js";
import satori from "satori";
import { emojiImages, withoutEmoji } from "./share-emoji.server";
import { facesFor, loadFaces, type TextRole } from "./share-fonts.server";
import type { ShareCard } from "./share-card.server";

export const SHARE_IMAGE = { width: 1200, height: 630 } as const;

// The site's colours (app/app.css).
const INK = "#14213d";
const PAPER = "#fbf9f4";
const SAND = "#f1ebdf";
const BRASS = "#b08d57";
const BRASS_LIGHT = "#d4b37a";

const PAD_X = 72;
const PAD_Y = 60;

const WIDE = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{Extended_Pictographic}]/u;

/** Wide characters (CJK, emoji) take about twice a Latin letter's room. */
function visualLength(text: string): number {
  let length = 0;
  for (const char of text) length += WIDE.test(char) ? 2 : 1;
  return length;
}

/** Long titles get smaller type; at most three lines either way (lineClamp). */
function titleSize(title: string): number {
  const length = visualLength(title);
  if (length <= 28) return 84;
  if (length <= 48) return 72;
  if (length <= 80) return 60;
  return 52;
}

const RTL = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

/** A text's direction from its first letter, as `dir="auto"` decides it in a browser. */
function directionOf(text: string): "rtl" | "ltr" {
  const first = /\p{L}/u.exec(text)?.[0];
  return first && RTL.test(first) ? "rtl" : "ltr";
}

/** One line of text that ends in "…" rather than run into its neighbour. */
const oneLine = { display: "block", whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis", minWidth: 0 } as const;

/** The card as satori's element tree; `font` gives each role's family list. */
function card(data: ShareCard, font: Record<TextRole, string>) {
  const { title, members, site } = data;
  return (
    // satori sizes boxes without their padding (content-box): the padding is taken off here.
    <div
      style={{
        width: SHARE_IMAGE.width - 2 * PAD_X,
        height: SHARE_IMAGE.height - 2 * PAD_Y,
        display: "flex",
        flexDirection: "column",
        backgroundColor: INK,
        color: PAPER,
        padding: `${PAD_Y}px ${PAD_X}px`,
        fontFamily: font.text,
      }}
    >
      <div style={{ display: "flex", alignItems: "center", justifyContent: "space-between" }}>
        <div style={{ display: "flex", alignItems: "center", minWidth: 0, flexShrink: 1 }}>
          <div
            style={{
              width: 64,
              height: 64,
              flexShrink: 0,
              borderRadius: 32,
              border: `3px solid ${BRASS}`,
              display: "flex",
              alignItems: "center",
              justifyContent: "center",
              fontFamily: font.serif,
              fontSize: 24,
              color: PAPER,
            }}
          >
            {site.shortName}
          </div>
          <div style={{ ...oneLine, marginLeft: 20, marginRight: 24, fontFamily: font.serif, fontSize: 34, color: PAPER }}>{site.name}</div>
        </div>
        <div
          style={{
            display: "flex",
            flexShrink: 0,
            padding: "10px 24px",
            borderRadius: 999,
            fontFamily: font.strong,
            fontSize: 24,
            fontWeight: 700,
            letterSpacing: 2,
            textTransform: "uppercase",
            backgroundColor: members ? BRASS_LIGHT : "transparent",
            color: members ? INK : PAPER,
            border: members ? `2px solid ${BRASS_LIGHT}` : `2px solid ${SAND}`,
          }}
        >
          {data.badge}
        </div>
      </div>
      <div style={{ display: "flex", flexDirection: "column", flexGrow: 1, flexShrink: 1, minHeight: 0, justifyContent: "center" }}>
        <div
          dir={directionOf(title)}
          style={{
            display: "block",
            fontFamily: font.serif,
            fontSize: titleSize(title),
            fontWeight: 600,
            lineHeight: 1.12,
            color: PAPER,
            // Three lines at most, the last ending in "…"; a word longer than a line breaks.
            lineClamp: 3,
            overflowWrap: "anywhere",
          }}
        >
          {title}
        </div>
      </div>
      <div style={{ display: "flex", flexDirection: "column", flexShrink: 0, borderTop: `2px solid ${BRASS}`, paddingTop: 28 }}>
        <div style={{ ...oneLine, fontSize: 32, fontWeight: 500, color: BRASS_LIGHT }}>{data.when}</div>
        <div style={{ display: "flex", justifyContent: "space-between", marginTop: 12, fontSize: 26, fontWeight: 500, color: SAND }}>
          <div dir={directionOf(data.where)} style={{ ...oneLine, flexShrink: 1, marginRight: 32 }}>
            {data.where}
          </div>
          <div style={{ display: "flex", flexShrink: 0 }}>{site.host}</div>
        </div>
      </div>
    </div>
  );
}

export type DrawnCard = {
  png: Buffer;
  /** Characters none of the fonts draws (satori shows a box for each): none for the scripts above. */
  missing: string[];
};

/** The card as a PNG, with the fonts and emoji pictures its text needs. */
export async function drawShareCard(data: ShareCard): Promise<DrawnCard> {
  const serif = [data.title, data.site.name, data.site.shortName].join("\n");
  const text = [data.when, data.where, data.site.host].join("\n");
  const graphemeImages = emojiImages(`${serif}\n${text}`);
  const faces = facesFor([
    { text: withoutEmoji(serif, graphemeImages), role: "serif" },
    { text: withoutEmoji(text, graphemeImages), role: "text" },
    { text: data.badge.toUpperCase(), role: "strong" },
  ]);
  const { fonts, families } = loadFaces(faces);
  const missing = new Set<string>();
  const svg = await satori(card(data, families), {
    ...SHARE_IMAGE,
    fonts,
    graphemeImages,
    // Asked for each piece of text no font has: every font the card can use is already loaded,
    // so this only records what would be drawn as a box.
    loadAdditionalAsset: async (_code, segment) => {
      if (!(segment in graphemeImages)) missing.add(segment);
      return [];
    },
  });
  // resvg draws on libuv's thread pool: even where this runs on the main thread (development),
  // rasterising holds no event loop.
  const image = await renderAsync(svg, { fitTo: { mode: "width", value: SHARE_IMAGE.width } });
  return { png: image.asPng(), missing: [...missing] };
}
