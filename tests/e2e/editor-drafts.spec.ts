// Drafts in the content editor (CONTENT_DRAFTS=on), for real and offline: Sveltia CMS as the site serves
// it, signed in with "Sign in with GitHub" (the scope the server always asks for, public_repo), saving
// through its GitHub backend's editorial workflow to the fake GitHub (tests/fakes/github.ts and
// github-pulls.ts), whose repository is a throw-away checkout of this one. A save is a cms/… branch and
// a draft pull request, main untouched, which the editor, opened again, reads back from GitHub; a
// deployment that a host posts on the pull request's head, as Render does for its preview, is the
// editor's "View Preview"; moved to Ready and published, the pull request is merged with a real merge
// commit on main. The fake refuses a write the token's scope does
// not allow, so the test also shows that drafts need no more than the scope saves already had.
import { spawnSync } from "node:child_process";
import { expect, test } from "./fixtures";
import {
  closeEditor,
  recordViolations,
  REPOSITORY,
  routeGitHubTo,
  signInWithGitHub,
  startEditorSetup,
  TOKEN,
  violationsIn,
  type EditorSetup,
} from "./support/editor";
import { field } from "./support/editor-fields";

/** The address Render gives a pull request's preview instance, which it posts as the deployment's environment_url. */
const PREVIEW_ORIGIN = "https://founders-site-pr-1.onrender.com";
const BRANCH = "cms/content/board";
const NEW_NAME = "Elena Vásquez-Ortiz";

let setup: EditorSetup;
const git = (...args: string[]) => spawnSync("git", args, { cwd: setup.checkout, encoding: "utf8" }).stdout.trim();

/** Posts on GitHub what Render posts for a pull request's preview: a deployment of the head, then its success with the address. */
async function postPreviewDeployment(sha: string): Promise<void> {
  const post = async (path: string, body: object) => {
    const res = await fetch(`${setup.fake.url}/repos/${REPOSITORY.owner}/${REPOSITORY.name}${path}`, {
      method: "POST",
      headers: { Authorization: `token ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { id: number };
  };
  const deployment = await post("/deployments", {
    ref: sha,
    environment: "founders-site-pr-1",
    transient_environment: true,
    production_environment: false,
    auto_merge: false,
    required_contexts: [],
  });
  await post(`/deployments/${deployment.id}/statuses`, {
    state: "in_progress",
    log_url: "https://dashboard.render.com/web/srv-fake/deploys/dep-fake",
  });
  await post(`/deployments/${deployment.id}/statuses`, {
    state: "success",
    environment_url: PREVIEW_ORIGIN,
    log_url: "https://dashboard.render.com/web/srv-fake/deploys/dep-fake",
  });
}

// A checkout, a fake GitHub, a server and the editor's first load are most of it; then a save, a status change, a
// merge. The editor looks for a preview every 5 s (Sveltia's POLL_INTERVAL), so the link can take that long.
test.describe.configure({ timeout: 90_000 });

test.beforeEach(async ({ context }) => {
  setup = await startEditorSetup({ oauth: true, env: { CONTENT_DRAFTS: "on" } });
  await routeGitHubTo(context, setup.fake);
  await recordViolations(context);
  // The preview site, offline: a page at its address.
  await context.route(`${PREVIEW_ORIGIN}/**`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Preview</title><p>Preview of a change" }),
  );
});

test.afterEach(async ({ context, consoleIssues }) => {
  // The editor keeps asking GitHub in the background: close its tabs before its fake goes. The preview pane's sandbox
  // warning is tolerated.
  for (const tab of context.pages()) await closeEditor(tab, consoleIssues);
  // Every request was one the fake knows, and none was refused (the token's scope allowed every write).
  expect(setup.fake.unhandled).toEqual([]);
  expect(setup.fake.refused).toEqual([]);
  await setup.stop();
});

test("a save is a draft pull request on a cms/ branch with main unchanged; the host's deployment on its head is View Preview at the file's page; Ready and Publish merge it into main", async ({
  page,
  context,
}) => {
  const mainBefore = git("rev-parse", "main");
  const boardBefore = git("show", "main:content/board.yaml");

  // The file's page on the site, as the editor's configuration links it (preview_path).
  const config = (await (await fetch(`${setup.server.url}/admin/config.json`)).json()) as {
    collections: Array<{ files: Array<{ name: string; preview_path?: string }> }>;
  };
  const previewPath = config.collections[0]!.files.find((file) => file.name === "board")!.preview_path;

  await page.goto(`${setup.server.url}/admin`);
  await signInWithGitHub(page);
  await page.getByText("Leadership board").click();
  await field(page, "board.0.name").getByRole("textbox").fill(NEW_NAME);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  // Saved as a draft; the editor offers to send it for review (an alert dialog): not yet.
  const review = page.getByRole("alertdialog", { name: "Send for Review" });
  await review.getByRole("button", { name: "Later" }).click();

  // --- A cms/ branch, one commit on it, and a draft pull request labelled Draft; main as it was.
  expect(setup.fake.pulls).toMatchObject([
    { number: 1, head: BRANCH, base: "main", draft: true, state: "open", labels: ["sveltia-cms/draft"] },
  ]);
  expect(setup.fake.commits.map((commit) => [commit.branch, commit.paths])).toEqual([[BRANCH, ["content/board.yaml"]]]);
  const head = git("rev-parse", `refs/heads/${BRANCH}`);
  expect(git("rev-parse", `${head}^`)).toBe(mainBefore);
  expect(git("show", `${BRANCH}:content/board.yaml`)).toContain(`name: ${NEW_NAME}`);
  expect(git("rev-parse", "main")).toBe(mainBefore);
  expect(git("show", "main:content/board.yaml")).toBe(boardBefore);
  expect(git("status", "--porcelain")).toBe("");

  // --- The draft as the editor reads it back from GitHub (its pull request, its label, its branch's file) after a reload.
  // The editor went back to the list on saving (its default); opened again, it reads everything from GitHub.
  await expect(page.getByRole("button", { name: "Create Entry or Assets" })).toBeVisible();
  expect(await violationsIn(page)).toEqual([]);
  // In a new tab of the same browser (the sign-in is in its storage): a goto on this one raced the editor still moving
  // its own address after the save, and was aborted (net::ERR_ABORTED) now and then.
  const editor = await context.newPage();
  await page.close();
  await editor.goto(`${setup.server.url}/admin`);
  await editor.getByText("Leadership board").click();
  await expect(field(editor, "board.0.name").getByRole("textbox")).toHaveValue(NEW_NAME);
  expect(setup.fake.requests.some((request) => request.query?.includes(`"${BRANCH}:content/board.yaml"`))).toBe(true);

  // --- The host deploys the pull request's head: the editor links to that deployment's address plus the file's page.
  await postPreviewDeployment(head);
  const viewPreview = editor.getByRole("button", { name: "View Preview" });
  // A round of the editor's 5-s look (above) and its requests: longer than an expectation's 5 s.
  await expect(viewPreview).toBeEnabled({ timeout: 15_000 });
  expect(previewPath).toMatch(/^\/\w/);
  const opened = context.waitForEvent("page");
  await viewPreview.click();
  const preview = await opened;
  await expect(preview).toHaveURL(`${PREVIEW_ORIGIN}${previewPath}`);
  await preview.close();

  // --- In Review, then Ready: the label follows, and the pull request leaves draft.
  // The editor's label isolates the status's name with invisible marks ("Status: \u2068Draft\u2069").
  const status = (name: string) => editor.getByRole("button", { name: new RegExp(`^Status:\\W+${name}\\W*$`) });
  await status("Draft").click();
  await editor.getByRole("menuitemradio", { name: "In Review" }).click();
  await expect(status("In Review")).toBeEnabled();
  expect(setup.fake.pulls[0]).toMatchObject({ draft: false, labels: ["sveltia-cms/pending_review"] });
  await status("In Review").click();
  await editor.getByRole("menuitemradio", { name: "Ready" }).click();
  await expect(status("Ready")).toBeEnabled();
  expect(setup.fake.pulls[0]).toMatchObject({ draft: false, labels: ["sveltia-cms/pending_publish"] });

  // --- Publish: the pull request merged as a merge commit on main, whose second parent is the draft's head.
  await editor.getByRole("button", { name: "Publish Entry" }).click();
  await editor.getByRole("alertdialog", { name: "Publish Entry" }).getByRole("button", { name: "Publish" }).click();
  await expect.poll(() => setup.fake.pulls[0]?.merged).toBe(true);
  const merge = git("rev-parse", "main");
  expect(setup.fake.pulls[0]).toMatchObject({ state: "closed", mergeCommitSha: merge });
  expect(git("log", "-1", "--format=%P", merge)).toBe(`${mainBefore} ${head}`);
  expect(git("log", "-1", "--format=%s%n%cn", merge)).toBe(`${setup.fake.pulls[0]!.title}\nGitHub`);
  // The checkout's files are main's: the new name is published.
  expect(git("status", "--porcelain")).toBe("");
  expect(git("show", "main:content/board.yaml")).toContain(`name: ${NEW_NAME}`);
  // The editor deleted the branch once merged, as it does on GitHub.
  await expect.poll(() => git("branch", "--list", BRANCH)).toBe("");

  // Signed in with the scope the server asks for without drafts too: it allowed every draft call (refused is empty).
  expect(setup.fake.authorizations.map((authorization) => authorization.scope)).toEqual(["public_repo"]);
  expect(await violationsIn(editor)).toEqual([]);
});
