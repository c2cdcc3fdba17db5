import type { Page } from "@playwright/test";
import { expect, waitForHydration } from "../fixtures";

/** Raises the contact form's blocked-tab toast on /contact and waits until it shows. */
export async function showToast(page: Page): Promise<void> {
  await page.goto("/contact");
  await waitForHydration(page);
  // A popup blocker makes window.open return null, which the form answers with a toast.
  await page.evaluate(() => {
    window.open = () => null;
  });
  const form = page.getByRole("form", { name: "Get In Touch" });
  await form.getByLabel("Full Name").fill("Ada Example");
  await form.getByLabel("Email").fill("ada@example.net");
  await form.getByLabel("Message").fill("Hello");
  await form.getByRole("button", { name: "CONTACT US" }).click();
  await expect(page.getByRole("region", { name: /^Notifications/ }).getByRole("listitem")).toBeVisible();
}
