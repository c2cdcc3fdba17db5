// An iPhone's HEIC photo through the content editor at /admin, offline as in admin.spec.ts: the file
// picker takes it, the editor commits it byte for byte, and the site's content check and build take
// it (its renditions and their orientation are checked in tests/integration/content-build.test.ts).
//
// The editor also tries to draw a HEIC's thumbnail with its own WebAssembly decoder in a worker,
// which the /admin policy does not allow (worker-src 'none', no 'wasm-unsafe-eval') and the site
// does not ship: in a browser that cannot show HEIC itself (all but Safari) the thumbnail stays
// blank, and the browser logs why. This test expects exactly those messages and nothing else.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { PORTRAIT_HEIC } from "../support/content-fixture";
import { startServer, type RunningServer } from "../support/start-server";
import { expect, test, type ConsoleIssue } from "./fixtures";
import { recordViolations, routeGitHubTo, signIn, startEditorSetup, violationsIn, type EditorSetup } from "./support/editor";

let setup: EditorSetup;

// `page` first: its guard's route must be there before ours (see admin.spec.ts).
test.beforeEach(async ({ page, context }) => {
  setup = await startEditorSetup();
  await routeGitHubTo(context, setup.fake);
  await recordViolations(page);
});

/** The editor's in-browser HEIC decoder failing under the /admin policy, as Chromium logs it: where, and what. */
const EDITOR = String.raw`/assets/sveltia-cms-[\d.]+/`;
const HEIC_PREVIEW_NOISE: Array<[url: RegExp, text: RegExp]> = [
  [
    new RegExp(`${EDITOR}index\\.js$`),
    /heic-worker-[\w-]+\.js' violates the following Content Security Policy directive: "worker-src 'none'"/,
  ],
  [new RegExp(`${EDITOR}assets/heic_dec-[\\w-]+\\.wasm$`), /^Failed to load resource: the server responded with a status of 404/],
  [
    new RegExp(`${EDITOR}chunks/heic-[\\w-]+\\.js$`),
    /'unsafe-eval' is not an allowed source|falling back to ArrayBuffer|both async and sync fetching of the wasm failed/,
  ],
];
const heicPreviewNoise = ({ kind, text, url }: ConsoleIssue) =>
  kind === "console.error" && HEIC_PREVIEW_NOISE.some(([where, what]) => where.test(url) && what.test(text));

test.afterEach(async ({ page }) => {
  await page.close();
  expect(setup.fake.unhandled).toEqual([]);
  await setup.stop();
});

test("a volunteer uploads an iPhone's HEIC as a founder's photo: the editor commits it, the check and the build take it", async ({
  page,
  consoleIssues,
}) => {
  test.setTimeout(300_000);
  await signIn(page, setup.server.url);
  await page.getByText("Featured founders").click();
  const photoField = page.getByRole("group", { name: /^Edit\b/ }).locator('[data-key-path="founders.0.photo"]');

  const heic = path.join(mkdtempSync(path.join(tmpdir(), "iphone-")), "IMG_2041.HEIC");
  copyFileSync(PORTRAIT_HEIC, heic);
  await photoField.getByRole("button", { name: "Browse" }).click();
  const dialog = page.getByRole("dialog");
  const chooser = page.waitForEvent("filechooser");
  await dialog.getByRole("button", { name: "Upload" }).click();
  const picker = await chooser;
  // The picker offers HEIC by type and by extension (a browser may not know HEIC's type).
  expect(await picker.element().getAttribute("accept")).toMatch(/(^|,)image\/heic(,|$).*(^|,)\.heic(,|$)/);
  await picker.setFiles(heic);
  await expect(dialog.getByText(/img_2041\.heic$/)).toBeVisible();
  await dialog.getByRole("button", { name: "Insert" }).click();
  await expect(photoField.getByText("images/img_2041.heic")).toBeVisible();

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Entry saved.")).toBeVisible({ timeout: 15_000 });
  // Only the thumbnail's decoder was refused: its worker, and WebAssembly in the page.
  expect(new Set(await violationsIn(page))).toEqual(
    new Set([
      expect.stringMatching(/^worker-src http:\/\/127\.0\.0\.1:\d+\/assets\/sveltia-cms-[\d.]+\/assets\/heic-worker-[\w-]+\.js$/),
      "script-src wasm-eval",
    ]),
  );
  expect([...setup.fake.commits[0]!.paths].sort()).toEqual(["content/founders.yaml", "content/images/img_2041.heic"]);
  expect(readFileSync(path.join(setup.checkout, "content/images/img_2041.heic")).equals(readFileSync(PORTRAIT_HEIC))).toBe(true);
  const founders = (
    parse(readFileSync(path.join(setup.checkout, "content/founders.yaml"), "utf8")) as { founders: Array<Record<string, string>> }
  ).founders;
  expect(founders[0]).toMatchObject({ name: "Maya Okafor", photo: "images/img_2041.heic" });

  const run = (script: string) =>
    spawnSync("npm", ["run", script], { cwd: setup.checkout, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } });
  const check = run("content:check");
  expect(check.status, check.stderr).toBe(0);
  const build = run("build");
  expect(build.status, build.stderr).toBe(0);

  let site: RunningServer | undefined;
  try {
    site = await startServer({}, { cwd: setup.checkout });
    await page.goto(`${site.url}/`);
    const photo = page.getByRole("img", { name: "Portrait of Maya Okafor" });
    await photo.scrollIntoViewIfNeeded();
    await expect(photo).toHaveAttribute("src", /^\/assets\/img-2041-160w-[\w-]{8}\.webp$/);
    await expect
      .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.naturalWidth === img.naturalHeight))
      .toBe(true);
  } finally {
    await site?.stop();
  }

  // The editor's thumbnail decoder was refused, and logged so; nothing else was (the fixture fails the test on any other).
  expect(consoleIssues.filter(heicPreviewNoise).length).toBeGreaterThan(0);
  const others = consoleIssues.filter((issue) => !heicPreviewNoise(issue));
  consoleIssues.splice(0, consoleIssues.length, ...others);
});
