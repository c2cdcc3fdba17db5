// Not part of the regular run: E2E_SHOTS=1 npx playwright test editor-shots
// Screenshots of the real content editor for docs/editing-content.md, taken against the fake GitHub
// (tests/e2e/support/editor.ts) and stored small (WebP, 960 px wide; the preview pane at the editor's full 1280, for its
// text to read) in docs/images/.
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { cameraJpeg, PORTRAIT_HEIC } from "../support/content-fixture";
import { expect, test } from "./fixtures";
import {
  closeEditor,
  heicThumbnailNoise,
  previewSandboxWarning,
  routeGitHubTo,
  SIGN_IN_WITH_GITHUB,
  signIn,
  startEditorSetup,
  TOKEN,
  type EditorSetup,
} from "./support/editor";
import { field, openFile, pickPhoto, previewPane } from "./support/editor-fields";

const DIR = path.resolve("docs/images");
mkdirSync(DIR, { recursive: true });

async function shot(page: Page, name: string, width = 960): Promise<void> {
  const png = await page.screenshot({ animations: "disabled" });
  await sharp(png)
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: 72 })
    .toFile(path.join(DIR, `${name}.webp`));
}

let setup: EditorSetup;
// A test tagged @github gets a server with "Sign in with GitHub" (an OAuth app on the fake).
test.beforeEach(async ({ context }, testInfo) => {
  setup = await startEditorSetup({ oauth: testInfo.tags.includes("@github") });
  await routeGitHubTo(context, setup.fake);
});
test.afterEach(async ({ page, consoleIssues }) => {
  // The preview pane's sandbox, and the editor's HEIC thumbnail decoder its policy refuses (admin.spec.ts checks both).
  await closeEditor(page, consoleIssues, (issue) => previewSandboxWarning(issue) || heicThumbnailNoise(issue));
  await setup.stop();
});
// A server and a checkout to start, the editor (1.5 MB of script) to load, and a screenshot a step.
test.describe.configure({ timeout: 60_000 });

test("the editor, step by step", async ({ page }) => {
  await page.goto(`${setup.server.url}/admin`);
  await page.getByRole("button", { name: "Sign In Using Access Token" }).click();
  await page.getByRole("textbox").fill(TOKEN.replace(/./g, "•").slice(0, 40));
  await shot(page, "editor-sign-in");
  await page.getByRole("textbox").fill(TOKEN);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Featured founders")).toBeVisible();
  await shot(page, "editor-pages");

  await page.getByText("Featured founders").click();
  const edit = page.getByRole("group", { name: /^Edit\b/ });
  await edit.locator('[data-key-path="founders.0.name"]').getByRole("textbox").fill("Amara Diallo");
  await edit.locator('[data-key-path="founders.0.photo"]').getByRole("button", { name: "Browse" }).click();
  const jpeg = path.join(mkdtempSync(path.join(tmpdir(), "phone-")), "amara-diallo.jpg");
  await cameraJpeg(jpeg, { width: 1600, height: 1200 });
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("dialog").getByRole("button", { name: "Upload" }).click();
  await (await chooser).setFiles(jpeg);
  await expect(page.getByRole("dialog").getByText("amara-diallo.jpg")).toBeVisible();
  await shot(page, "editor-photo");
  await page.getByRole("dialog").getByRole("button", { name: "Insert" }).click();
  await expect(edit.locator('[data-key-path="founders.0.photo"]').getByText("images/amara-diallo.jpg")).toBeVisible();
  await edit.locator('[data-key-path="founders.0.title"]').evaluate((element) => element.scrollIntoView({ block: "start" }));
  await shot(page, "editor-founder");

  await edit.locator('[data-key-path="founders.1.name"]').getByRole("textbox").fill("");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(edit.locator('[data-key-path="founders.1.name"]')).toContainText("This field is required.");
  await edit.locator('[data-key-path="founders.1.name"]').evaluate((element) => element.scrollIntoView({ block: "center" }));
  await shot(page, "editor-error");

  await edit.locator('[data-key-path="founders.1.name"]').getByRole("textbox").fill("Daniel Reyes");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Entry saved.")).toBeVisible();
  await shot(page, "editor-saved");
});

// The preview pane beside the form, at the editor's usual width, for the guide's "See it before you save".
test("the preview pane", async ({ page }) => {
  await signIn(page, setup.server.url);
  await openFile(page, "founders");
  await field(page, "founders.0.name").getByRole("textbox").fill("Amara Diallo");
  const jpeg = path.join(mkdtempSync(path.join(tmpdir(), "phone-")), "amara-diallo.jpg");
  await cameraJpeg(jpeg, { width: 1600, height: 1200 });
  await pickPhoto(page, "founders.0.photo", jpeg, /amara-diallo\.jpg$/);
  const card = previewPane(page).locator('section[aria-labelledby="founders-heading"] li').first();
  await expect(card.getByRole("heading")).toHaveText("Amara Diallo");
  await expect.poll(() => card.getByRole("img").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  await field(page, "founders.0.name").scrollIntoViewIfNeeded();
  await shot(page, "editor-preview-founders", 1280);

  const heic = path.join(mkdtempSync(path.join(tmpdir(), "iphone-")), "IMG_2041.HEIC");
  copyFileSync(PORTRAIT_HEIC, heic);
  await pickPhoto(page, "founders.1.photo", heic, /img_2041\.heic$/);
  await expect(previewPane(page).getByRole("complementary", { name: "About this preview" })).toBeVisible();
  await shot(page, "editor-preview-heic", 1280);

  await field(page, "founders.0.name").scrollIntoViewIfNeeded();
  await field(page, "founders.0.name").getByRole("textbox").fill("");
  await expect(previewPane(page).getByText("The page cannot be shown with this yet")).toBeVisible();
  await shot(page, "editor-preview-error", 1280);

  for (const file of ["site", "about", "events"]) {
    // Leaving the founders unsaved: the editor asks whether to discard them.
    page.once("dialog", (dialog) => void dialog.accept());
    await openFile(page, file);
    await expect(previewPane(page).locator("h1, h2").first()).toBeVisible();
    await shot(page, `editor-preview-${file}`, 1280);
  }
});

test("signing in with GitHub", { tag: "@github" }, async ({ page }) => {
  await page.goto(`${setup.server.url}/admin`);
  await expect(page.getByRole("button", { name: SIGN_IN_WITH_GITHUB })).toBeVisible();
  // "Work with Local Repository" (and its note) is offered on localhost only: a volunteer on the site never sees it.
  await page.getByRole("button", { name: "Work with Local Repository" }).evaluate((button) => {
    button.nextElementSibling?.remove();
    button.remove();
  });
  await expect(page.getByText("Once prompted")).toHaveCount(0);
  await shot(page, "editor-sign-in-github");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test("the founders form", async ({ page }) => {
    await signIn(page, setup.server.url);
    // On a phone the collection comes first, then its pages.
    await page.getByText("Site content").click();
    await page.getByText("Featured founders").click();
    await expect(
      page
        .getByRole("group", { name: /^Edit\b/ })
        .locator('[data-key-path="founders.0.name"]')
        .getByRole("textbox"),
    ).toHaveValue("Maya Okafor");
    await shot(page, "editor-phone", 375);
  });
});
