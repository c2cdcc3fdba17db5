// The content editor at /admin, for real and offline: Sveltia CMS as the site serves it, signed in
// with "Sign in with GitHub" (the server started with an OAuth app's id and secret and GitHub's address
// pointed at the fake GitHub, whose consent screen the editor's popup shows) or with an access token,
// saving through its GitHub backend to a fake GitHub on loopback whose repository is a throw-away
// checkout of this one. What it writes then passes the site's own content check; that same edit builds
// and shows in tests/integration/content-build.test.ts. The repository's own content/ is never touched.
//
// One editor session for everything a volunteer does here (a server, a checkout and the editor's first
// load are most of the time): a sign-in cancelled on GitHub's screen, then one click on it; what the
// editor refuses; a rename, a phone's JPEG and an iPhone's HEIC in one save; and, signed out, the access
// token signs in again and shows the saved edit.
//
// The editor also tries to draw a HEIC's thumbnail with its own WebAssembly decoder in a worker,
// which the /admin policy does not allow (worker-src 'none', no 'wasm-unsafe-eval') and the site
// does not ship: in a browser that cannot show HEIC itself (all but Safari) the thumbnail stays
// blank, and the browser logs why. This test expects exactly those messages and nothing else.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { cameraJpeg, PORTRAIT_HEIC } from "../support/content-fixture";
import { OAUTH_APP } from "../fakes/github";
import { expect, test } from "./fixtures";
import {
  recordViolations,
  routeGitHubTo,
  SIGN_IN_WITH_GITHUB,
  signInWithGitHub,
  signInWithToken,
  startEditorSetup,
  TOKEN,
  HEIC_THUMBNAIL_VIOLATIONS,
  heicThumbnailNoise,
  closeEditor,
  violationsIn,
  type EditorSetup,
} from "./support/editor";
import { field, pickPhoto } from "./support/editor-fields";

type Founder = Record<string, string>;
const readFounders = (checkout: string) =>
  (parse(readFileSync(path.join(checkout, "content/founders.yaml"), "utf8")) as { founders: Founder[] }).founders;
/** The scripts still running (ended with the test, if it ends first). */
const running = new Set<ChildProcess>();

/** Runs an npm script in the checkout as an operator would (NODE_ENV=production), without blocking the test's process. */
async function run(cwd: string, script: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  // NODE_ENV=production: as an operator's build (Playwright's own environment is not one). Its own
  // process group, so that ending it ends npm's children too.
  const child = spawn("npm", ["run", script], { cwd, env: { ...process.env, NODE_ENV: "production" }, detached: true });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  return { status, stdout, stderr };
}

let setup: EditorSetup;

// A checkout, a fake GitHub, a server, the editor's session (its 1.5 MB of script, two sign-ins through a popup
// and one with the token, two uploads, a save) and a content check: about 20 s alone on a quiet two-core machine,
// 40-50 s beside the other two workers, more than twice that on a machine twice as busy.
test.describe.configure({ timeout: 150_000 });

test.beforeEach(async ({ context }) => {
  setup = await startEditorSetup({ oauth: true });
  await routeGitHubTo(context, setup.fake);
  // Any policy violation, in the editor or in its sign-in popup, fails the test: the /admin policy is the loosest
  // the editor needs, no looser.
  await recordViolations(context);
});

test.afterEach(async ({ page, consoleIssues }) => {
  // The editor keeps asking GitHub in the background: close it before its fake goes, or a late
  // request finds the fake gone and fails the test. The preview pane's sandbox warning is tolerated.
  await closeEditor(page, consoleIssues);
  // A check the test did not wait for (it failed or timed out first) ends with it.
  for (const child of running) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
  // Every request the editor made was one the fake knows, as GitHub would answer it.
  expect(setup.fake.unhandled).toEqual([]);
  await setup.stop();
});

test("a volunteer cancels on GitHub's screen and is told so, signs in with one click on it, is refused what the check would refuse, saves a rename, a phone's JPEG and an iPhone's HEIC in one commit that the content check takes; and the access token signs in too", async ({
  page,
  consoleIssues,
}) => {
  // One step for each thing a volunteer does or is told: a failure names its step.
  const before = readFounders(setup.checkout);

  await test.step("the editor offers Sign in with GitHub and the access token", async () => {
    await page.goto(`${setup.server.url}/admin`);
    // The access token stays on offer beside it.
    await expect(page.getByRole("button", { name: "Sign In Using Access Token" })).toBeVisible();
  });

  await test.step("a sign-in cancelled on GitHub's screen is told so, and no code is exchanged", async () => {
    const opened = page.waitForEvent("popup");
    await page.getByRole("button", { name: SIGN_IN_WITH_GITHUB }).click();
    const popup = await opened;
    const closed = popup.waitForEvent("close");
    await popup.getByRole("button", { name: "Cancel" }).click();
    await closed;
    await expect(page.getByText("You did not allow the content editor to use your GitHub account")).toBeVisible();
    expect(setup.fake.exchanges).toEqual([]);
    // The browser's note of the popup's 403 and the editor's of the failed sign-in, and nothing else.
    expect(consoleIssues.map((issue) => issue.text)).toEqual([
      "Failed to load resource: the server responded with a status of 403 (Forbidden)",
      expect.stringMatching(/^Error Authentication failed Error: You did not allow the content editor/),
    ]);
    consoleIssues.splice(0);
  });

  await test.step("one click on Authorize, and the volunteer is in the editor", async () => {
    await signInWithGitHub(page);
    await page.getByText("Featured founders").click();
    await expect(field(page, "founders.0.name").getByRole("textbox")).toHaveValue("Maya Okafor");
  });

  await test.step("the editor refuses what the content check would, and nothing of it reaches GitHub", async () => {
    // Six is the most: no adding, no duplicating.
    await expect(page.getByRole("button", { name: /^Add\W*Founder\W*$/ })).toBeDisabled();
    await field(page, "founders").getByRole("button", { name: "List Item Options" }).first().click();
    await expect(page.getByRole("menuitem", { name: "Duplicate" })).toBeDisabled();
    await page.keyboard.press("Escape");
    // An emptied required field is refused, and so is one of spaces only (the editor trims, as the
    // content check does): each in a field of its own, so each message is that save's.
    for (const [keyPath, emptied] of [
      ["founders.1.name", ""],
      ["founders.0.name", "   "],
    ] as const) {
      await expect(field(page, keyPath)).not.toContainText("This field is required.");
      await field(page, keyPath).getByRole("textbox").fill(emptied);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(field(page, keyPath)).toContainText("This field is required.");
      await expect(page.getByText("Entry saved.")).toHaveCount(0);
    }
    // A malformed address too, with the content check's own words.
    await field(page, "founders.0.linkedinUrl").getByRole("textbox").fill("linkedin.com/in/maya");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(field(page, "founders.0.linkedinUrl")).toContainText("must be an absolute http(s) URL");
    expect(setup.fake.commits).toEqual([]);
    expect(setup.fake.requests.filter((request) => request.operation === "mutation")).toEqual([]);
    expect(await violationsIn(page)).toEqual([]);
    // Put back as they were (the first founder's name is changed below).
    await field(page, "founders.1.name").getByRole("textbox").fill(before[1]!.name!);
    await field(page, "founders.0.linkedinUrl").getByRole("textbox").fill(before[0]!.linkedinUrl!);
  });

  const jpeg = await test.step("a rename, and a phone's JPEG (a phone's file name, EXIF's rotate 90°)", async () => {
    const name = field(page, "founders.0.name").getByRole("textbox");
    await name.fill("Amara Nwosu-Ødegaard");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "phone-")), "IMG_2041 (1).JPG");
    await cameraJpeg(file, { width: 1600, height: 1200 });
    // The upload is named as the photo check accepts it: lower case, no spaces or brackets.
    await pickPhoto(page, "founders.0.photo", file, /img_2041-1\.jpg$/);
    await expect(field(page, "founders.0.photo").locator("img")).toBeVisible();
    // A JPEG's thumbnail needs nothing the policy refuses.
    expect(await violationsIn(page)).toEqual([]);
    return file;
  });

  await test.step("an iPhone's HEIC as the second founder's photo", async () => {
    const heic = path.join(mkdtempSync(path.join(tmpdir(), "iphone-")), "IMG_2041.HEIC");
    copyFileSync(PORTRAIT_HEIC, heic);
    const accept = await pickPhoto(page, "founders.1.photo", heic, /img_2041\.heic$/);
    // The picker offers HEIC by type and by extension (a browser may not know HEIC's type).
    expect(accept).toMatch(/(^|,)image\/heic(,|$).*(^|,)\.heic(,|$)/);
    await expect(field(page, "founders.1.photo").getByText("images/img_2041.heic")).toBeVisible();
  });

  await test.step("one save: one commit with the file and both photos, only the HEIC decoder refused", async () => {
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Entry saved.")).toBeVisible();
    // Only the HEIC thumbnail's decoder was refused: its worker, and WebAssembly in the page.
    expect(new Set(await violationsIn(page))).toEqual(HEIC_THUMBNAIL_VIOLATIONS);

    // One real commit, through GitHub's createCommitOnBranch, holding the file and both photos.
    expect(setup.fake.commits).toHaveLength(1);
    expect(setup.fake.commits[0]!.headline).toBe("Edit founders in the content editor +2");
    expect([...setup.fake.commits[0]!.paths].sort()).toEqual([
      "content/founders.yaml",
      "content/images/img_2041-1.jpg",
      "content/images/img_2041.heic",
    ]);
    const git = (...args: string[]) => spawnSync("git", args, { cwd: setup.checkout, encoding: "utf8" }).stdout.trim();
    expect(git("status", "--porcelain")).toBe("");
    expect(git("log", "-1", "--format=%s")).toBe("Edit founders in the content editor +2");
  });

  await test.step("the file as the site reads it, the photos byte for byte", async () => {
    // The new name and photos as images/<file>, the other four as they were (the refused edits put back), no ''
    // anywhere.
    const after = readFounders(setup.checkout);
    expect(after[0]).toEqual({ ...before[0], name: "Amara Nwosu-Ødegaard", photo: "images/img_2041-1.jpg" });
    expect(after[1]).toEqual({ ...before[1], photo: "images/img_2041.heic" });
    expect(after.slice(2)).toEqual(before.slice(2));
    expect(readFileSync(path.join(setup.checkout, "content/founders.yaml"), "utf8")).not.toMatch(/: ''$|: ""$/m);
    const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
    expect(sha(path.join(setup.checkout, "content/images/img_2041-1.jpg"))).toBe(sha(jpeg));
    expect(sha(path.join(setup.checkout, "content/images/img_2041.heic"))).toBe(sha(PORTRAIT_HEIC));
  });

  await test.step("the site's content check takes what the editor wrote", async () => {
    // The loader the build runs. That same edit (the rename, the two photos under these names) builds and shows on
    // the home page in tests/integration/content-build.test.ts, which also checks the photos' renditions.
    const check = await run(setup.checkout, "content:check");
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toContain("content/ is valid: the site will build with it.");
  });

  await test.step("one consent screen a sign-in, one code exchanged, neither token nor code logged", async () => {
    // Each consent screen was for the server's scope and callback (the cancelled one, then the one authorized); one
    // exchange of a code, for the token.
    const consent = {
      clientId: OAUTH_APP.clientId,
      redirectUri: `${setup.server.url}/admin/auth/callback`,
      scope: "public_repo",
      state: expect.any(String),
    };
    expect(setup.fake.authorizations).toEqual([consent, consent]);
    expect(setup.fake.exchanges.map((exchange) => exchange.answer)).toEqual(["token"]);
    // Neither the token nor the code reached the server's log.
    await setup.server.logCaughtUp();
    const log = setup.server.output();
    expect(log).toContain('"path":"/admin/auth/callback"');
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(setup.fake.exchanges[0]!.code);
  });

  await test.step("signed out, the access token signs in and shows the saved name", async () => {
    await page.getByRole("button", { name: "Show Account Menu" }).click();
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await signInWithToken(page);
    await page.getByText("Featured founders").click();
    await expect(field(page, "founders.0.name").getByRole("textbox")).toHaveValue("Amara Nwosu-Ødegaard");
    expect(setup.fake.commits).toHaveLength(1);
  });

  await test.step("the console: the HEIC decoder's refusals, and nothing else", async () => {
    // The fixture fails the test on any issue left here; the preview pane's sandbox warning is dropped once the page is
    // closed.
    expect(consoleIssues.filter(heicThumbnailNoise).length).toBeGreaterThan(0);
    const others = consoleIssues.filter((issue) => !heicThumbnailNoise(issue));
    consoleIssues.splice(0, consoleIssues.length, ...others);
  });
});
