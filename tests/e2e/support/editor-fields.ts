// The content editor's form, as a volunteer uses it: a field by its key path, revealed when the editor
// draws it late, and a photo picked through its media dialog. The preview pane beside it is an iframe.
import { expect, type FrameLocator, type Page } from "@playwright/test";

/** A field of the edit pane (the editor's own preview repeats the key paths). */
export const field = (page: Page, keyPath: string) => page.getByRole("group", { name: /^Edit\b/ }).locator(`[data-key-path="${keyPath}"]`);

/** The preview pane: the iframe the editor writes the template's page into. */
export const previewPane = (page: Page): FrameLocator => page.frameLocator('iframe[title="Content Preview"]');

/**
 * Opens a file of the "Site content" collection by its name in the configuration (editor-config.server.ts), through
 * the collection's list: from one entry straight to another, the editor shows a blank page.
 */
export async function openFile(page: Page, name: string): Promise<void> {
  const go = (hash: string) => page.evaluate((to) => (location.hash = to), hash);
  await go("#/collections/content");
  await expect(page.getByRole("group", { name: /^Edit\b/ })).toHaveCount(0);
  await go(`#/collections/content/entries/${name}`);
  await expect(page.getByRole("group", { name: /^Edit\b/ })).toBeVisible();
}

/** The editor draws a list item's fields as they scroll into view: scrolls down the item until the field is there. */
export async function reveal(page: Page, keyPath: string): Promise<void> {
  const item = keyPath.slice(0, keyPath.lastIndexOf("."));
  await expect
    .poll(async () => {
      if ((await field(page, keyPath).count()) > 0) return true;
      await page
        .getByRole("group", { name: /^Edit\b/ })
        .locator(`[data-key-path^="${item}."]`)
        .last()
        .scrollIntoViewIfNeeded();
      return false;
    })
    .toBe(true);
}

/**
 * Picks a file through the photo field's media dialog and inserts it (not yet saved), once the dialog shows it as
 * `shownAs`; resolves with the file picker's `accept`.
 */
export async function pickPhoto(page: Page, keyPath: string, file: string, shownAs: RegExp): Promise<string | null> {
  await reveal(page, keyPath);
  await field(page, keyPath).getByRole("button", { name: "Browse" }).click();
  const dialog = page.getByRole("dialog");
  const chooser = page.waitForEvent("filechooser");
  await dialog.getByRole("button", { name: "Upload" }).click();
  const picker = await chooser;
  const accept = await picker.element().getAttribute("accept");
  await picker.setFiles(file);
  await expect(dialog.getByText(shownAs)).toBeVisible();
  await dialog.getByRole("button", { name: "Insert" }).click();
  return accept;
}
