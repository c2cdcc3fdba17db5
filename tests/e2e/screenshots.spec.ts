import { mkdirSync } from "node:fs";
import {
  DESKTOP,
  NOT_FOUND_PATH,
  PAGES,
  PHONE,
  TABLET,
  expect,
  scrollToBottom,
  test,
  waitForHydration,
  waitForQuietNetwork,
} from "./fixtures";
import { showToast } from "./support/toast";
import { animationsDone } from "./support/settled";

// Not part of the regular run: E2E_SHOTS=1 npx playwright test screenshots
// Full-page screenshots of every page at phone, tablet and desktop widths, for a visual review.
const DIR = process.env.E2E_SHOTS_DIR ?? "/tmp/e2e-shots";
mkdirSync(`${DIR}/parts`, { recursive: true });

const name = (path: string) => (path === "/" ? "home" : path.replace(/^\//, "").replace(/\W+/g, "-"));

for (const viewport of [PHONE, TABLET, DESKTOP]) {
  test.describe(`screenshots at ${viewport.width} px`, () => {
    test.use({ viewport });

    for (const path of [...PAGES.map((p) => p.path), "/events?tab=past", NOT_FOUND_PATH]) {
      test(path, async ({ page }) => {
        await page.goto(path);
        await waitForHydration(page);
        await scrollToBottom(page);
        await waitForQuietNetwork(page);
        await expect
          .poll(() =>
            page.locator("img").evaluateAll((imgs) => (imgs as HTMLImageElement[]).every((i) => i.complete && i.naturalWidth > 0)),
          )
          .toBe(true);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: `${DIR}/${name(path)}-${viewport.width}.png`, fullPage: true, animations: "disabled" });
        // The same page in viewport-high slices, legible at review size.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        const slice = viewport.width < 600 ? 700 : 900;
        for (let y = 0, i = 1; y < height; y += slice, i++) {
          await page.screenshot({
            path: `${DIR}/parts/${name(path)}-${viewport.width}-${String(i).padStart(2, "0")}.png`,
            fullPage: true,
            animations: "disabled",
            clip: { x: 0, y, width: viewport.width, height: Math.min(slice, height - y) },
          });
        }
      });
    }
  });
}

test("drawer open at 375 px", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/about");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
  await animationsDone(page);
  await page.screenshot({ path: `${DIR}/drawer-375.png` });
});

for (const viewport of [PHONE, DESKTOP]) {
  test(`popup-blocked toast at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await showToast(page);
    await expect(page.getByRole("region", { name: /^Notifications/ }).getByText("Your browser blocked the new tab")).toBeVisible();
    await animationsDone(page);
    await page.screenshot({ path: `${DIR}/toast-${viewport.width}.png` });
  });
}
