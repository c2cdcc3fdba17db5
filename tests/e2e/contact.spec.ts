import type { Request } from "@playwright/test";
import { PHONE, DESKTOP, expect, test, waitForHydration } from "./fixtures";
import { pageSettled } from "./support/settled";

const SURVEY_URL = "https://members.example.org/survey/get-in-touch";
const typed = {
  name: "Zelda Quibbleworth",
  email: "zelda.quibble@example.net",
  message: "Secret-message-7f3a: please call me about sponsorship",
};

/** Every way a typed value could leak into a URL (raw, URL-encoded, form-encoded). */
function leaks(url: string): string[] {
  const forms = (v: string) => [v, encodeURIComponent(v), new URLSearchParams({ v }).toString().slice(2)];
  const hay = [url, decodeURIComponent(url)].join("\n").toLowerCase();
  return Object.values(typed)
    .flatMap(forms)
    .concat(["Zelda", "Quibble", "Secret-message"])
    .filter((needle) => hay.includes(needle.toLowerCase()));
}

for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`contact form (${viewport.width} px)`, () => {
    test.use({ viewport });

    test.beforeEach(async ({ page, context }) => {
      // Stand-in for the provider's survey page, so the new tab has somewhere to land offline.
      await context.route("https://members.example.org/**", (route) =>
        route.fulfill({ contentType: "text/html", body: "<title>Survey</title><h1>Get in touch</h1>" }),
      );
      // React Router asks our server for the routes of the page's links once it has hydrated (/__manifest):
      // that answer is in before a test watches what the submission sends.
      const discovered = page.waitForResponse((response) => new URL(response.url()).pathname === "/__manifest");
      await page.goto("/contact");
      await waitForHydration(page);
      await discovered;
    });

    test("the fields are required, labelled, and the email field is an e-mail input", async ({ page }) => {
      const form = page.getByRole("form", { name: "Get In Touch" });
      await expect(form).toBeVisible();
      await expect(form.getByLabel("Full Name")).toHaveAttribute("required", "");
      await expect(form.getByLabel("Email")).toHaveAttribute("type", "email");
      await expect(form.getByLabel("Email")).toHaveAttribute("required", "");
      await expect(form.getByLabel("Message")).toHaveAttribute("required", "");

      // An empty submission is stopped by the browser: no new tab.
      let opened = false;
      page.context().on("page", () => (opened = true));
      await form.getByRole("button", { name: "CONTACT US" }).click();
      await expect.poll(() => form.getByLabel("Full Name").evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
      await pageSettled(page);
      expect(opened).toBe(false);
    });

    test("CONTACT US opens the survey in a new tab, sends nothing to our server and leaks nothing", async ({ page, baseURL }) => {
      const form = page.getByRole("form", { name: "Get In Touch" });
      await form.getByLabel("Full Name").fill(typed.name);
      await form.getByLabel("Email").fill(typed.email);
      await form.getByLabel("Message").fill(typed.message);

      const ours: Request[] = [];
      const all: Request[] = [];
      const ourOrigin = new URL(baseURL!).origin;
      page.context().on("request", (request) => {
        all.push(request);
        if (new URL(request.url()).origin === ourOrigin) ours.push(request);
      });

      const [popup] = await Promise.all([page.context().waitForEvent("page"), form.getByRole("button", { name: "CONTACT US" }).click()]);
      await popup.waitForLoadState();
      await expect(popup.getByRole("heading", { name: "Get in touch" })).toBeVisible();

      expect(popup.url()).toBe(SURVEY_URL);
      expect(leaks(popup.url()), "typed values must not appear in the survey URL").toEqual([]);
      // The opener link is severed.
      expect(await popup.evaluate(() => window.opener)).toBeNull();

      // Anything the submission set off has gone out (and been seen) once both pages have settled.
      await pageSettled(page);
      await pageSettled(popup);
      expect(
        ours.map((r) => `${r.method()} ${r.url()}`),
        "the submission must not reach our server",
      ).toEqual([]);
      for (const request of all) {
        expect(leaks(request.url()), `typed values leaked in ${request.url()}`).toEqual([]);
        expect(leaks(request.postData() ?? ""), `typed values leaked in the body of ${request.url()}`).toEqual([]);
      }
      // The page itself did not navigate, and the form was cleared.
      await expect(page).toHaveURL(/\/contact$/);
      await expect(form.getByLabel("Full Name")).toHaveValue("");
      await expect(form.getByLabel("Message")).toHaveValue("");
    });

    test("with the new tab blocked, a toast offers a link to the survey", async ({ page }) => {
      // A popup blocker makes window.open return null.
      await page.evaluate(() => {
        window.open = () => null;
      });
      let opened = false;
      page.context().on("page", () => (opened = true));

      const form = page.getByRole("form", { name: "Get In Touch" });
      await form.getByLabel("Full Name").fill(typed.name);
      await form.getByLabel("Email").fill(typed.email);
      await form.getByLabel("Message").fill(typed.message);
      await form.getByRole("button", { name: "CONTACT US" }).click();

      const toast = page
        .getByRole("region", { name: /^Notifications/ })
        .getByRole("listitem")
        .filter({ hasText: "Your browser blocked the new tab" });
      await expect(toast).toBeVisible();
      await expect(toast).toBeInViewport();
      const link = toast.getByRole("link", { name: /Open the contact survey/ });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute("href", SURVEY_URL);
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", /\bnoopener\b/);
      await expect(link).toHaveAttribute("rel", /\bnoreferrer\b/);
      expect(opened).toBe(false);
      // The typed values are kept, so nothing is lost while the visitor uses the link.
      await expect(form.getByLabel("Full Name")).toHaveValue(typed.name);

      // The link works.
      const [popup] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
      await popup.waitForLoadState();
      expect(popup.url()).toBe(SURVEY_URL);
    });
  });
}

test.describe("contact form without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the script-less submission opens the survey in a new tab without the typed values", async ({ page, context }) => {
    await context.route("https://members.example.org/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>Survey</title><h1>Get in touch</h1>" }),
    );
    await page.goto("/contact");
    const form = page.getByRole("form", { name: "Get In Touch" });
    await form.getByLabel("Full Name").fill(typed.name);
    await form.getByLabel("Email").fill(typed.email);
    await form.getByLabel("Message").fill(typed.message);
    const [popup] = await Promise.all([context.waitForEvent("page"), form.getByRole("button", { name: "CONTACT US" }).click()]);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).origin + new URL(popup.url()).pathname).toBe(SURVEY_URL);
    expect(leaks(popup.url())).toEqual([]);
    await expect(page).toHaveURL(/\/contact$/);
  });
});
