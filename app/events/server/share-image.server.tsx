// Each event's 1200×630 share card (og:image), drawn on the server: satori lays the card out and
// turns its text into paths with the fonts shipped in node_modules (@fontsource, OFL), resvg
// rasterises the SVG to PNG. No browser and no remote font at run time. The answer store keeps
// the PNG per calendar version, like the event's page.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import satori, { type Font } from "satori";
import { badgeLabel, eventTitle, eventType } from "~/events/classify";
import { formatEventDate } from "~/events/format-date";
import { summaryOf } from "~/events/html-text";
import type { CalendarEvent } from "~/events/model";

export const SHARE_IMAGE = { width: 1200, height: 630 } as const;

// The site's colours (app/app.css).
const INK = "#14213d";
const PAPER = "#fbf9f4";
const SAND = "#f1ebdf";
const BRASS = "#b08d57";
const BRASS_LIGHT = "#d4b37a";

const PAD_X = 72;
const PAD_Y = 60;

const require = createRequire(import.meta.url);

function fontFile(pkg: string, file: string): Buffer {
  return readFileSync(require.resolve(`${pkg}/files/${file}`));
}

let fonts: Font[] | undefined;
/** Read once, on the first card: the Latin and Latin Extended subsets of each weight drawn. */
function loadFonts(): Font[] {
  fonts ??= [
    ...["latin", "latin-ext"].map((subset): Font => ({
      name: "Source Serif 4",
      data: fontFile("@fontsource/source-serif-4", `source-serif-4-${subset}-600-normal.woff`),
      weight: 600,
      style: "normal",
    })),
    ...[500, 700].flatMap((weight) =>
      ["latin", "latin-ext"].map((subset): Font => ({
        name: "Inter",
        data: fontFile("@fontsource/inter", `inter-${subset}-${weight}-normal.woff`),
        weight: weight as 500 | 700,
        style: "normal",
      })),
    ),
  ];
  return fonts;
}

/** Long titles get smaller type, and at most three lines. */
function titleSize(title: string): number {
  if (title.length <= 28) return 84;
  if (title.length <= 48) return 72;
  if (title.length <= 80) return 60;
  return 52;
}

export type ShareCardSite = { name: string; shortName: string; host: string };

/** The card as satori's element tree. */
function card(event: CalendarEvent, site: ShareCardSite) {
  const title = summaryOf(eventTitle(event), 110);
  const type = eventType(eventTitle(event));
  const members = type === "members-only";
  const when = formatEventDate(event.start, event.end);
  const where = event.location ? summaryOf(event.location, 70) : undefined;
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
        fontFamily: "Inter",
      }}
    >
      <div style={{ display: "flex", alignItems: "center", justifyContent: "space-between" }}>
        <div style={{ display: "flex", alignItems: "center" }}>
          <div
            style={{
              width: 64,
              height: 64,
              borderRadius: 32,
              border: `3px solid ${BRASS}`,
              display: "flex",
              alignItems: "center",
              justifyContent: "center",
              fontFamily: "Source Serif 4",
              fontSize: 24,
              color: PAPER,
            }}
          >
            {site.shortName}
          </div>
          <div style={{ marginLeft: 20, fontFamily: "Source Serif 4", fontSize: 34, color: PAPER }}>{site.name}</div>
        </div>
        <div
          style={{
            display: "flex",
            padding: "10px 24px",
            borderRadius: 999,
            fontSize: 24,
            fontWeight: 700,
            letterSpacing: 2,
            textTransform: "uppercase",
            backgroundColor: members ? BRASS_LIGHT : "transparent",
            color: members ? INK : PAPER,
            border: members ? `2px solid ${BRASS_LIGHT}` : `2px solid ${SAND}`,
          }}
        >
          {badgeLabel[type]}
        </div>
      </div>
      <div style={{ display: "flex", flexDirection: "column", flexGrow: 1, justifyContent: "center" }}>
        <div
          style={{
            display: "block",
            fontFamily: "Source Serif 4",
            fontSize: titleSize(title),
            lineHeight: 1.12,
            color: PAPER,
            lineClamp: 3,
          }}
        >
          {title}
        </div>
      </div>
      <div style={{ display: "flex", flexDirection: "column", borderTop: `2px solid ${BRASS}`, paddingTop: 28 }}>
        <div style={{ display: "flex", fontSize: 34, fontWeight: 500, color: BRASS_LIGHT }}>{when}</div>
        <div style={{ display: "flex", justifyContent: "space-between", marginTop: 12, fontSize: 26, fontWeight: 500, color: SAND }}>
          <div style={{ display: "flex", maxWidth: 760 }}>{where ?? "Member Events"}</div>
          <div style={{ display: "flex" }}>{site.host}</div>
        </div>
      </div>
    </div>
  );
}

/** The event's share card as a PNG. */
export async function renderShareImage(event: CalendarEvent, site: ShareCardSite): Promise<Buffer> {
  const svg = await satori(card(event, site), { ...SHARE_IMAGE, fonts: loadFonts() });
  return new Resvg(svg, { fitTo: { mode: "width", value: SHARE_IMAGE.width } }).render().asPng();
}
