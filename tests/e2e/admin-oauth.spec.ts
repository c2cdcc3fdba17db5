// "Sign in with GitHub" in the content editor, for real and offline: the server started with an OAuth
// app's id and secret and GitHub's address pointed at the fake GitHub, whose consent screen the
// editor's popup shows. One click on Authorize and the volunteer is in the editor, and saves. One
// session: a server, a checkout and the editor's first load are most of the time.
import type { Page } from "@playwright/test";
import { OAUTH_APP } from "../fakes/github";
import { expect, test } from "./fixtures";
import {
  recordViolations,
  routeGitHubTo,
  SIGN_IN_WITH_GITHUB,
  signInWithGitHub,
  startEditorSetup,
  TOKEN,
  violationsIn,
  type EditorSetup,
} from "./support/editor";

const field = (page: Page, keyPath: string) => page.getByRole("group", { name: /^Edit\b/ }).locator(`[data-key-path="${keyPath}"]`);

let setup: EditorSetup;

// A server and a checkout to start, and the editor (1.5 MB of script) to load and sign in twice:
// about 10 s alone on a quiet two-core machine, 20 s beside the other two workers, more than twice that
// on a machine twice as busy.
test.describe.configure({ timeout: 120_000 });

// `page` first: its guard's route (which blocks every request off the machine) must come before ours.
test.beforeEach(async ({ page: _page, context }) => {
  setup = await startEditorSetup({ oauth: true });
  await routeGitHubTo(context, setup.fake);
  // Any policy violation, in the editor or in its popup, fails the test.
  await recordViolations(context);
});

test.afterEach(async ({ page }) => {
  await page.close();
  expect(setup.fake.unhandled).toEqual([]);
  await setup.stop();
});

test("a volunteer who cancels on GitHub's screen is told so in plain words; then signs in with one click on it, renames a founder and saves", async ({
  page,
  consoleIssues,
}) => {
  await page.goto(`${setup.server.url}/admin`);
  // The access token stays on offer beside it.
  await expect(page.getByRole("button", { name: "Sign In Using Access Token" })).toBeVisible();

  // --- Cancel on GitHub's screen.
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

  // --- Then sign in: one click on Authorize, and the volunteer is in the editor.
  await signInWithGitHub(page);
  await page.getByText("Featured founders").click();
  const name = field(page, "founders.0.name").getByRole("textbox");
  await expect(name).toHaveValue("Maya Okafor");
  await name.fill("Amara Nwosu");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Entry saved.")).toBeVisible();
  expect(await violationsIn(page)).toEqual([]);

  // Each consent screen was for the server's scope and callback (the cancelled one, then this one);
  // one exchange of a code, for the token.
  const consent = {
    clientId: OAUTH_APP.clientId,
    redirectUri: `${setup.server.url}/admin/auth/callback`,
    scope: "public_repo",
    state: expect.any(String),
  };
  expect(setup.fake.authorizations).toEqual([consent, consent]);
  expect(setup.fake.exchanges.map((exchange) => exchange.answer)).toEqual(["token"]);
  expect(setup.fake.commits).toHaveLength(1);
  expect(setup.fake.commits[0]!.paths).toEqual(["content/founders.yaml"]);

  // Neither the token nor the code reached the server's log.
  await setup.server.logCaughtUp();
  const log = setup.server.output();
  expect(log).toContain('"path":"/admin/auth/callback"');
  expect(log).not.toContain(TOKEN);
  expect(log).not.toContain(setup.fake.exchanges[0]!.code);
});
