// The content editor at /admin, for real and offline: Sveltia CMS as the site serves it, signed in
// with an access token, saving through its GitHub backend to a fake GitHub on loopback whose
// repository is a throw-away checkout of this one. What it writes then goes through the site's own
// content check and build (the photo pipeline), and the built site shows it. The repository's own
// content/ is never touched.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { parse } from "yaml";
import { cameraJpeg } from "../support/content-fixture";
import { startServer, type RunningServer } from "../support/start-server";
import { expect, test } from "./fixtures";
import { recordViolations, routeGitHubTo, violationsIn, signIn, startEditorSetup, type EditorSetup } from "./support/editor";

type Founder = Record<string, string>;
const readFounders = (checkout: string) =>
  (parse(readFileSync(path.join(checkout, "content/founders.yaml"), "utf8")) as { founders: Founder[] }).founders;
/** A field of the edit pane (the preview pane repeats the key paths). */
const field = (page: Page, keyPath: string) => page.getByRole("group", { name: /^Edit\b/ }).locator(`[data-key-path="${keyPath}"]`);
const run = (cwd: string, script: string) =>
  // NODE_ENV=production: as an operator's build (Playwright's own environment is not one).
  spawnSync("npm", ["run", script], { cwd, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } });

let setup: EditorSetup;

// `page` first: its guard's route (which blocks every request off the machine) must be there before
// ours, so that ours, added later, is the one that answers GitHub's addresses.
test.beforeEach(async ({ page, context }) => {
  setup = await startEditorSetup();
  await routeGitHubTo(context, setup.fake);
  // Any policy violation fails the test: the /admin policy is the loosest the editor needs, no looser.
  await recordViolations(page);
});

test.afterEach(async ({ page }) => {
  // The editor keeps asking GitHub in the background: close it before its fake goes, or a late
  // request finds the fake gone and fails the test.
  await page.close();
  // Every request the editor made was one the fake knows, as GitHub would answer it.
  expect(setup.fake.unhandled).toEqual([]);
  await setup.stop();
});

test("a volunteer renames a founder, uploads a phone photo and saves: the check and the build take it, and the page shows it", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const before = readFounders(setup.checkout);
  await signIn(page, setup.server.url);
  await page.getByText("Featured founders").click();

  const name = field(page, "founders.0.name").getByRole("textbox");
  await expect(name).toHaveValue("Maya Okafor");
  await name.fill("Amara Nwosu-Ødegaard");

  // A phone's file name and a JPEG that says "rotate 90°" in its EXIF.
  const jpeg = path.join(mkdtempSync(path.join(tmpdir(), "phone-")), "IMG_2041 (1).JPG");
  await cameraJpeg(jpeg, { width: 1600, height: 1200 });
  await field(page, "founders.0.photo").getByRole("button", { name: "Browse" }).click();
  const dialog = page.getByRole("dialog");
  const chooser = page.waitForEvent("filechooser");
  await dialog.getByRole("button", { name: "Upload" }).click();
  await (await chooser).setFiles(jpeg);
  // The upload is named as the photo check accepts it: lower case, no spaces or brackets.
  await expect(dialog.getByText(/img_2041-1\.jpg$/)).toBeVisible();
  await dialog.getByRole("button", { name: "Insert" }).click();
  await expect(field(page, "founders.0.photo").locator("img")).toBeVisible();

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Entry saved.")).toBeVisible({ timeout: 15_000 });
  expect(await violationsIn(page)).toEqual([]);

  // One real commit, through GitHub's createCommitOnBranch, holding the file and the photo.
  expect(setup.fake.commits).toHaveLength(1);
  expect(setup.fake.commits[0]!.headline).toBe("Edit founders in the content editor +1");
  expect([...setup.fake.commits[0]!.paths].sort()).toEqual(["content/founders.yaml", "content/images/img_2041-1.jpg"]);
  const git = (...args: string[]) => spawnSync("git", args, { cwd: setup.checkout, encoding: "utf8" }).stdout.trim();
  expect(git("status", "--porcelain")).toBe("");
  expect(git("log", "-1", "--format=%s")).toBe("Edit founders in the content editor +1");

  // The file as the site reads it: the new name, the photo as images/<file>, the other five as they were, no '' anywhere.
  const after = readFounders(setup.checkout);
  expect(after[0]).toEqual({ ...before[0], name: "Amara Nwosu-Ødegaard", photo: "images/img_2041-1.jpg" });
  expect(after.slice(1)).toEqual(before.slice(1));
  expect(readFileSync(path.join(setup.checkout, "content/founders.yaml"), "utf8")).not.toMatch(/: ''$|: ""$/m);
  const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
  expect(sha(path.join(setup.checkout, "content/images/img_2041-1.jpg"))).toBe(sha(jpeg));

  // The site's own content check, then its build (which renders the photo), on what the editor wrote.
  const check = run(setup.checkout, "content:check");
  expect(check.status, check.stderr).toBe(0);
  expect(check.stdout).toContain("content/ is valid: the site will build with it.");
  const build = run(setup.checkout, "build");
  expect(build.status, build.stderr).toBe(0);

  let site: RunningServer | undefined;
  try {
    site = await startServer({}, { cwd: setup.checkout });
    await page.goto(`${site.url}/`);
    const card = page.locator("li", { has: page.getByRole("heading", { name: "Amara Nwosu-Ødegaard" }) });
    await expect(card).toBeVisible();
    await expect(page.getByText("Maya Okafor")).toHaveCount(0);
    const photo = card.getByRole("img", { name: "Portrait of Amara Nwosu-Ødegaard" });
    await photo.scrollIntoViewIfNeeded();
    await expect(photo).toHaveAttribute("src", /^\/assets\/img-2041-1-160w-[\w-]{8}\.webp$/);
    // Loaded, square (cropped by the pipeline, upright from the EXIF orientation).
    await expect
      .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.naturalWidth === img.naturalHeight))
      .toBe(true);
  } finally {
    await site?.stop();
  }
});

test("the editor refuses an empty required field and a seventh founder", async ({ page }) => {
  // The editor loads and signs in first: 26–33 s in CI runs on a loaded two-core machine, over the default 30 s.
  test.setTimeout(90_000);
  await signIn(page, setup.server.url);
  await page.getByText("Featured founders").click();
  await expect(field(page, "founders.0.name").getByRole("textbox")).toHaveValue("Maya Okafor");

  // Six is the most: no adding, no duplicating.
  await expect(page.getByRole("button", { name: /^Add\W*Founder\W*$/ })).toBeDisabled();
  await field(page, "founders").getByRole("button", { name: "List Item Options" }).first().click();
  await expect(page.getByRole("menuitem", { name: "Duplicate" })).toBeDisabled();
  await page.keyboard.press("Escape");

  // An emptied required field is refused, and so is one of spaces only (the editor trims, as the content check does).
  const name = field(page, "founders.1.name").getByRole("textbox");
  for (const emptied of ["", "   "]) {
    await name.fill(emptied);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(field(page, "founders.1.name")).toContainText("This field is required.");
    await expect(page.getByText("Entry saved.")).toHaveCount(0);
  }
  // A malformed address too, with the content check's own words.
  await field(page, "founders.0.linkedinUrl").getByRole("textbox").fill("linkedin.com/in/maya");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(field(page, "founders.0.linkedinUrl")).toContainText("must be an absolute http(s) URL");

  // Nothing reached GitHub.
  expect(setup.fake.commits).toEqual([]);
  expect(setup.fake.requests.filter((request) => request.operation === "mutation")).toEqual([]);
  expect(await violationsIn(page)).toEqual([]);
});
