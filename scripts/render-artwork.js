// Renders the site's illustrations (scripts/artwork) to the shipped images in public/.
// Run by hand after editing the artwork: `node scripts/render-artwork.js` (needs Debian's chromium).
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { chromium } from "@playwright/test";
import { CHROME_PATH, CHROMIUM_FLAGS } from "./chromium.js";

const jobs = [
  { source: "scripts/artwork/core-group.svg", out: "public/images/tiles/core-group", width: 800, height: 600 },
  { source: "scripts/artwork/evening-salon.svg", out: "public/images/tiles/evening-salon", width: 800, height: 600 },
  { source: "scripts/artwork/og-image.html", out: "public/og-image", width: 1200, height: 630, png: true },
  // The Organization structured data's logo: the favicon's mark, as a square PNG with clear corners.
  { source: "public/favicon.svg", out: "public/logo", width: 512, height: 512, png: true, transparent: true },
];
// `node scripts/render-artwork.js logo` renders only the jobs whose output path contains "logo".
const only = process.argv[2];

const browser = await chromium.launch({
  executablePath: CHROME_PATH,
  args: CHROMIUM_FLAGS,
});
try {
  for (const job of jobs.filter((j) => !only || j.out.includes(only))) {
    for (const scale of job.png ? [1] : [1, 0.5]) {
      const width = Math.round(job.width * scale);
      const height = Math.round(job.height * scale);
      const page = await browser.newPage({ viewport: { width, height } });
      const markup = await readFile(job.source, "utf8");
      const html = job.source.endsWith(".svg")
        ? `<body style="margin:0">${markup.replace("<svg ", `<svg width="${width}" height="${height}" `)}</body>`
        : markup;
      await page.setContent(html);
      const session = await page.context().newCDPSession(page);
      if (job.transparent) await session.send("Emulation.setDefaultBackgroundColorOverride", { color: { r: 0, g: 0, b: 0, a: 0 } });
      const format = job.png ? "png" : "webp";
      const { data } = await session.send("Page.captureScreenshot", { format, quality: 82 });
      const suffix = scale === 1 ? "" : `-${width}w`;
      const file = `${job.out}${suffix}.${format}`;
      await mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
      await writeFile(file, Buffer.from(data, "base64"));
      console.log(`wrote ${file}`);
      await page.close();
    }
  }
} finally {
  await browser.close();
}
