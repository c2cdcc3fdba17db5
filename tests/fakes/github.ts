// A fake GitHub over real HTTP on 127.0.0.1, port 0: the part of GitHub's REST and GraphQL APIs the
// content editor (Sveltia CMS's GitHub backend) uses, over a real git repository in a folder. A
// commit through the API is a real `git commit` in that folder, so what the editor saves is real
// files a build can read. GraphQL queries are run by graphql-js against a slice of GitHub's own
// schema (same type and field names), so the editor's queries are parsed and validated as GitHub
// would, and a query outside the slice is an error, not a silent empty answer. With `oauthApp`, it is
// also GitHub's OAuth web flow for that app (github.com/login/oauth/…): a consent screen whose
// Authorize sends the browser back with a one-use code, and the code's exchange for the token. As on
// GitHub, the app has one registered callback URL (`registerCallback`): a `redirect_uri` it does not
// allow sends the browser to that callback with `error=redirect_uri_mismatch`, never to the address given.
// The editor's drafts (editorial workflow) are there too: branches made and moved through the API,
// commits on any branch, pull requests, their labels, a merge as a real merge commit, and the
// deployments and statuses a host or CI posts on a commit (tests/fakes/github-pulls.ts). A token
// signed in through the OAuth app holds the scope its consent screen was for, and a write it does
// not allow is refused as GitHub refuses it (recorded in `refused`).
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildSchema, graphql, GraphQLError } from "graphql";
import { fakePulls, PULLS_SCHEMA, type FakeCommitStatus, type FakeDeployment, type FakePullRequest } from "./github-pulls";
import { startLoopbackServer } from "./loopback-server";

export type FakeGitHubOptions = {
  /** A folder holding a git repository with at least one commit on `branch`. */
  repoDir: string;
  owner: string;
  name: string;
  branch: string;
  /** The token the editor must sign in with (and the one the OAuth app's sign-in gives). */
  token: string;
  login: string;
  /** An OAuth app registered on the fake: its sign-in pages and code exchange answer for it. */
  oauthApp?: { clientId: string; clientSecret: string; name: string };
  /** The OAuth app's "Authorization callback URL" (or later, by `registerCallback`, once the site's address is known). */
  callbackUrl?: string;
};

/**
 * Whether GitHub lets an OAuth app with this registered callback send the browser to `redirectUri`:
 * the same scheme, the same host or a subdomain of it, the same port, and the callback's path or one
 * under it (GitHub's "Redirect URLs" rules; its leniency about a loopback callback's port is left out,
 * so a test that sends the wrong port fails).
 */
export function callbackAllows(callbackUrl: string, redirectUri: string): boolean {
  if (!URL.canParse(redirectUri)) return false;
  const callback = new URL(callbackUrl);
  const redirect = new URL(redirectUri);
  const path = callback.pathname.replace(/\/+$/, "");
  return (
    redirect.protocol === callback.protocol &&
    (redirect.hostname === callback.hostname || redirect.hostname.endsWith(`.${callback.hostname}`)) &&
    redirect.port === callback.port &&
    (redirect.pathname === callback.pathname || redirect.pathname.startsWith(`${path}/`)) &&
    redirect.username === "" &&
    redirect.password === ""
  );
}

/** A sign-in the consent screen was shown for (the query GitHub's authorize page got); `refused` when it was sent back at once. */
export type FakeAuthorization = { clientId: string; redirectUri: string; scope: string; state: string; refused?: "redirect_uri_mismatch" };
/** A code's exchange (POST /login/oauth/access_token), and what the fake answered. */
export type FakeExchange = { clientId: string; code: string; redirectUri?: string; answer: "token" | string };

/** A request as the fake saw it; a GraphQL one with its kind (query or mutation) and its document, spaces collapsed. */
export type FakeRequest = { method: string; path: string; operation?: string; query?: string };
export type FakeCommit = { oid: string; headline: string; paths: string[]; branch: string };
/** The fake's copy of its repository: every object by id, each commit's parents and changed paths, the branches. */
type Store = {
  objects: Map<string, { type: string; bytes: Buffer }>;
  changes: Map<string, { parents: string[]; paths: string[] }>;
  refs: Map<string, string>;
};

export type FakeGitHub = {
  /** Where requests for https://api.github.com, https://www.githubstatus.com and avatars are to be sent. */
  url: string;
  requests: FakeRequest[];
  /** Requests the fake does not know: a test expects none. */
  unhandled: FakeRequest[];
  /** Requests GitHub would refuse as the fake did (a stale head, an existing ref, a scope the token lacks), with the reason. */
  refused: FakeRequest[];
  commits: FakeCommit[];
  /** The pull requests opened through the API, as they are now. */
  pulls: FakePullRequest[];
  /** The deployments and commit statuses posted through the API (as a host or CI posts them). */
  deployments: FakeDeployment[];
  statuses: FakeCommitStatus[];
  authorizations: FakeAuthorization[];
  exchanges: FakeExchange[];
  /** Sets the OAuth app's callback URL, as its owner does on GitHub's settings page. */
  registerCallback: (url: string) => void;
  close: () => Promise<void>;
};

const SCHEMA = buildSchema(`
  scalar GitObjectID
  scalar DateTime
  scalar GitTimestamp
  scalar Base64String
  scalar URI

  type Query { repository(owner: String!, name: String!): Repository }
  type Mutation {
    createCommitOnBranch(input: CreateCommitOnBranchInput!): CreateCommitOnBranchPayload
    createRef(input: CreateRefInput!): CreateRefPayload
    convertPullRequestToDraft(input: ConvertPullRequestToDraftInput!): ConvertPullRequestToDraftPayload
    markPullRequestReadyForReview(input: MarkPullRequestReadyForReviewInput!): MarkPullRequestReadyForReviewPayload
  }

  type Repository {
    id: ID!
    nameWithOwner: String!
    pullRequests(states: [PullRequestState!], labels: [String!], headRefName: String, first: Int, orderBy: IssueOrder): PullRequestConnection!
    defaultBranchRef: Ref
    ref(qualifiedName: String!): Ref
    object(oid: GitObjectID, expression: String): GitObject
  }
  type Ref { name: String!  prefix: String!  target: GitObject }
  interface GitObject { oid: GitObjectID! }
  type Commit implements GitObject {
    oid: GitObjectID!
    message: String!
    messageHeadline: String!
    committedDate: DateTime!
    author: GitActor
    committer: GitActor
    history(first: Int, path: String): CommitHistoryConnection!
    file(path: String!): TreeEntry
    status: Status
    deployments(last: Int, orderBy: DeploymentOrder): DeploymentConnection
    checkSuites(last: Int): CheckSuiteConnection
  }
  enum StatusState { ERROR EXPECTED FAILURE PENDING SUCCESS }
  type Status { state: StatusState!  contexts: [StatusContext!]! }
  type StatusContext { context: String!  state: StatusState!  targetUrl: URI  description: String }
  enum OrderDirection { ASC DESC }
  enum DeploymentOrderField { CREATED_AT }
  input DeploymentOrder { field: DeploymentOrderField!  direction: OrderDirection! }
  enum DeploymentStatusState { ERROR FAILURE INACTIVE PENDING SUCCESS QUEUED IN_PROGRESS WAITING }
  type DeploymentConnection { nodes: [Deployment] }
  type Deployment { environment: String  latestStatus: DeploymentStatus }
  type DeploymentStatus { state: DeploymentStatusState!  environmentUrl: URI  description: String }
  enum CheckStatusState { COMPLETED IN_PROGRESS PENDING QUEUED REQUESTED WAITING }
  enum CheckConclusionState { ACTION_REQUIRED CANCELLED FAILURE NEUTRAL SKIPPED STALE STARTUP_FAILURE SUCCESS TIMED_OUT }
  type CheckSuiteConnection { nodes: [CheckSuite] }
  type CheckSuite { checkRuns(last: Int): CheckRunConnection }
  type CheckRunConnection { nodes: [CheckRun] }
  type CheckRun { name: String!  status: CheckStatusState!  conclusion: CheckConclusionState  detailsUrl: URI  summary: String }
  type Blob implements GitObject { oid: GitObjectID!  text: String  isTruncated: Boolean!  isBinary: Boolean  byteSize: Int! }
  type Tree implements GitObject { oid: GitObjectID! }
  type CommitHistoryConnection { nodes: [Commit]  totalCount: Int! }
  type GitActor { name: String  email: String  avatarUrl(size: Int): URI!  date: GitTimestamp  user: User }
  type User implements Actor { databaseId: Int  login: String!  avatarUrl(size: Int): URI!  name: String  email: String! }
  type TreeEntry { oid: GitObjectID!  path: String  name: String! }

  input CreateCommitOnBranchInput {
    branch: CommittableBranch!
    expectedHeadOid: GitObjectID!
    fileChanges: FileChanges
    message: CommitMessage!
    clientMutationId: String
  }
  input CommittableBranch { repositoryNameWithOwner: String  branchName: String  id: ID }
  input FileChanges { additions: [FileAddition!]  deletions: [FileDeletion!] }
  input FileAddition { path: String!  contents: Base64String! }
  input FileDeletion { path: String! }
  input CommitMessage { headline: String!  body: String }
  type CreateCommitOnBranchPayload { commit: Commit  ref: Ref  clientMutationId: String }
  ${PULLS_SCHEMA}
`);

const USER_ID = 4_242;
/** The repository's GraphQL node id (what createRef is given as repositoryId). */
const REPOSITORY_ID = "R_kgDOfakeRepo";
const AVATAR = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPomrIMK2IYWhIAIFxxAQQ2w/AAAAAASUVORK5CYII=",
  "base64",
);
/** GitHub's GraphQL blob text stops at 512 KB (isTruncated); the editor then reads the blob over REST. */
const MAX_BLOB_TEXT = 512 * 1024;

/** An OAuth app registered on the fake GitHub, for "Sign in with GitHub". */
export const OAUTH_APP = {
  clientId: "Ov23liFAKEclientID01",
  clientSecret: "fake-oauth-client-secret-0123456789abcdef",
  name: "Founders Circle editor",
};

/** The server's variables for that app, its GitHub at `url` (the fake's). */
export const oauthEnv = (url: string) => ({
  GITHUB_OAUTH_CLIENT_ID: OAUTH_APP.clientId,
  GITHUB_OAUTH_CLIENT_SECRET: OAUTH_APP.clientSecret,
  GITHUB_OAUTH_URL: url,
});

/**
 * The sign-in tests' GitHub: a one-file repository (founders/site, branch main, a volunteer holding
 * `token`) and the OAuth app, its callback registered when given; closing it removes the repository.
 */
export async function startSignInGitHub(token: string, callbackUrl?: string): Promise<FakeGitHub> {
  const repoDir = mkdtempSync(path.join(tmpdir(), "oauth-repo-"));
  writeFileSync(path.join(repoDir, "README.md"), "site\n");
  initRepository(repoDir, "main");
  const fake = await startFakeGitHub({
    repoDir,
    owner: "founders",
    name: "site",
    branch: "main",
    token,
    login: "volunteer",
    oauthApp: OAUTH_APP,
    ...(callbackUrl && { callbackUrl }),
  });
  const close = fake.close;
  fake.close = async () => {
    await close();
    rmSync(repoDir, { recursive: true, force: true });
  };
  return fake;
}

export async function startFakeGitHub(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const { repoDir, owner, name, branch, token, login } = options;
  const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" };
  const git = (args: string[], input?: string | Buffer, env: NodeJS.ProcessEnv = gitEnv) =>
    execFileSync("git", args, { cwd: repoDir, encoding: "utf8", input, env }).trim();
  const gitBuffer = (args: string[]) => execFileSync("git", args, { cwd: repoDir, maxBuffer: 64 * 1024 * 1024 });
  // The repository as it is, read with two git processes (again after each commit): the editor's first
  // load asks for a dozen files and their histories at once, and a git process per field (about a
  // hundred, each blocking the test's process) made it take seconds.
  let store = readStore();
  function readStore(): Store {
    const objects = new Map<string, { type: string; bytes: Buffer }>();
    const all = gitBuffer(["cat-file", "--batch-all-objects", "--batch"]);
    for (let at = 0; at < all.length;) {
      const eol = all.indexOf(10, at);
      const [oid = "", type = "", size = "0"] = all.subarray(at, eol).toString("latin1").split(" ");
      objects.set(oid, { type, bytes: all.subarray(eol + 1, eol + 1 + Number(size)) });
      at = eol + 1 + Number(size) + 1;
    }
    // Each commit's parents and the paths it changed (the first commit: every path), for history(path).
    const changes = new Map<string, { parents: string[]; paths: string[] }>();
    const log = git(["log", "--all", "--no-renames", "--name-only", "--format=%x01%H %P"]);
    for (const entry of log.split("\x01").filter(Boolean)) {
      const [ids = "", ...paths] = entry.split("\n").filter(Boolean);
      const [oid = "", ...parents] = ids.split(" ");
      changes.set(oid, { parents, paths });
    }
    const refs = new Map<string, string>();
    for (const line of git(["for-each-ref", "--format=%(objectname) %(refname)", "refs/heads/"]).split("\n").filter(Boolean)) {
      const [oid = "", ref = ""] = line.split(" ");
      refs.set(ref, oid);
    }
    return { objects, changes, refs };
  }
  const exists = (rev: string) => {
    if (store.objects.has(rev)) return rev;
    if (store.refs.has(rev)) return store.refs.get(rev);
    try {
      // `<rev>:<path>` names an object already; a suffix there would be read as part of the path.
      return git(["rev-parse", "--verify", "--quiet", rev.includes(":") ? rev : `${rev}^{object}`]);
    } catch {
      return undefined;
    }
  };
  /** A branch's head, or a commit given by its full id. */
  const resolve = (ref: string) =>
    store.refs.get(`refs/heads/${ref}`) ?? (/^[0-9a-f]{40}$/.test(ref) && store.objects.get(ref)?.type === "commit" ? ref : undefined);
  const blobBytes = (oid: string) => store.objects.get(oid)?.bytes ?? gitBuffer(["cat-file", "blob", oid]);
  /** A commit's fields as git's own formats give them (%B, %s, %an, %ae, %aI, …), from its raw text. */
  const commitInfo = (oid: string) => {
    const raw = store.objects.get(oid)?.bytes.toString("utf8") ?? git(["cat-file", "commit", oid]);
    const split = raw.indexOf("\n\n");
    const headers = (split < 0 ? raw : raw.slice(0, split)).split("\n");
    const message = split < 0 ? "" : raw.slice(split + 2).trim();
    const person = (field: "author" | "committer") => {
      const line = headers.find((h) => h.startsWith(`${field} `)) ?? "";
      const [, personName = "", email = "", seconds = "0", zone = "+0000"] = /^\w+ (.*) <(.*)> (\d+) ([+-]\d{4})$/.exec(line) ?? [];
      const offset = (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)));
      const local = new Date((Number(seconds) + offset * 60) * 1000).toISOString().slice(0, 19);
      return { name: personName, email, date: `${local}${zone.slice(0, 3)}:${zone.slice(3)}` };
    };
    return {
      message,
      headline: (message.split("\n\n")[0] ?? "").replace(/\n/g, " "),
      author: person("author"),
      committer: person("committer"),
    };
  };
  /**
   * `git log --max-count=first --format=%H oid [-- path]`: every commit reachable through all parents,
   * newest first (a published draft's commits are behind its merge's second parent); with a path, those
   * that changed it (a merge, which changes nothing of its own, is not listed, as git simplifies it away).
   */
  const history = (oid: string, first: number, file?: string) => {
    const seen = new Set<string>();
    for (const queue = [oid]; queue.length > 0;) {
      const at = queue.shift()!;
      if (seen.has(at) || !store.changes.has(at)) continue;
      seen.add(at);
      queue.push(...store.changes.get(at)!.parents);
    }
    const touches = (at: string) => {
      const changed = store.changes.get(at)!.paths;
      return file === undefined || changed.some((p) => p === file || p.startsWith(`${file.replace(/\/$/, "")}/`));
    };
    const time = (at: string) => Date.parse(commitInfo(at).committer.date);
    // A stable sort: commits of the same second stay children first, as found.
    return [...seen]
      .filter(touches)
      .sort((a, b) => time(b) - time(a))
      .slice(0, first);
  };

  /** The branch checked out in repoDir: its files follow its head (the tests read them there). */
  const checkedOut = git(["symbolic-ref", "-q", "HEAD"]);
  /** Points `ref` at `next` if it still points at `previous` (git checks, as GitHub does), the checked-out branch's files with it. */
  function moveRef(ref: string, next: string, previous: string) {
    git(["update-ref", ref, next, previous]);
    if (ref === checkedOut) git(["read-tree", "-m", "-u", previous, next]);
  }
  /** Who GitHub writes a commit as: the volunteer, committed by GitHub. */
  const asGitHub = {
    ...gitEnv,
    GIT_AUTHOR_NAME: login,
    GIT_AUTHOR_EMAIL: `${login}@users.noreply.github.com`,
    GIT_COMMITTER_NAME: "GitHub",
    GIT_COMMITTER_EMAIL: "noreply@github.com",
  };
  /** A commit of `parent`'s files with these changes, made without touching the working tree (so on any branch). */
  function commitOf(parent: string, deletions: string[], additions: Array<{ path: string; bytes: Buffer }>, message: string) {
    const index = path.join(mkdtempSync(path.join(tmpdir(), "fake-github-index-")), "index");
    const env = { ...gitEnv, GIT_INDEX_FILE: index };
    try {
      git(["read-tree", parent], undefined, env);
      for (const file of deletions) git(["update-index", "--force-remove", "--", file], undefined, env);
      for (const { path: file, bytes } of additions) {
        const blob = git(["hash-object", "-w", "--stdin"], bytes);
        git(["update-index", "--add", "--cacheinfo", `100644,${blob},${file}`], undefined, env);
      }
      const tree = git(["write-tree"], undefined, env);
      return git(["commit-tree", tree, "-p", parent, "-F", "-"], message, asGitHub);
    } finally {
      rmSync(path.dirname(index), { recursive: true, force: true });
    }
  }
  /** GitHub's "files changed" of a pull request: `head` against its merge base with `base`, renames found (with the old path). */
  function changedFiles(base: string, head: string) {
    const status = { A: "added", M: "modified", D: "removed", R: "renamed" } as const;
    const from = resolve(base);
    if (!from) return [];
    return git(["diff", "--name-status", "-M", `${from}...${head}`])
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [kind = "", ...paths] = line.split("\t");
        const renamed = kind.startsWith("R");
        return {
          path: paths.at(-1) ?? "",
          status: status[kind[0] as keyof typeof status] ?? "modified",
          ...(renamed ? { previous: paths[0] ?? "" } : {}),
        };
      });
  }
  /** Merges `head` into the branch `base` as GitHub does: a merge commit (or, squashed, one commit), or undefined on a conflict. */
  function merge(base: string, head: string, message: string, squash: boolean) {
    const ref = `refs/heads/${base}`;
    const current = store.refs.get(ref);
    if (!current) return undefined;
    const merged = spawnSync("git", ["merge-tree", "--write-tree", current, head], { cwd: repoDir, encoding: "utf8", env: gitEnv });
    if (merged.status !== 0) return undefined;
    const tree = merged.stdout.split("\n")[0] ?? "";
    const paths = changedFiles(base, head).map((file) => file.path);
    const oid = git(["commit-tree", tree, "-p", current, ...(squash ? [] : ["-p", head]), "-F", "-"], message, asGitHub);
    moveRef(ref, oid, current);
    store = readStore();
    commits.push({ oid, headline: message.split("\n")[0] ?? "", paths, branch: base });
    return oid;
  }

  const requests: FakeRequest[] = [];
  const unhandled: FakeRequest[] = [];
  const refused: FakeRequest[] = [];
  const commits: FakeCommit[] = [];
  const authorizations: FakeAuthorization[] = [];
  const exchanges: FakeExchange[] = [];
  let callbackUrl = options.callbackUrl;
  /** Codes given by Authorize and not yet exchanged, with the redirect_uri they were given for. */
  const codes = new Map<string, { redirectUri: string; scope: string }>();
  /**
   * The scopes of the token once a sign-in through the OAuth app has given it (its consent screen's); before
   * that, the token is a volunteer's fine-grained one, with the permissions the guide lists.
   */
  let scopes: string[] | undefined;
  /** The repository is public: public_repo is enough to write to it, and repo is more. */
  const mayWrite = () => scopes === undefined || scopes.includes("public_repo") || scopes.includes("repo");
  const scopeHeaders = (): Record<string, string> => ({
    "X-OAuth-Scopes": (scopes ?? []).join(", "),
    "X-Accepted-OAuth-Scopes": "public_repo, repo",
  });

  type CommitNode = { __typename: "Commit"; oid: string };
  type BlobNode = { __typename: "Blob"; oid: string };
  const objectNode = (oid: string): CommitNode | BlobNode | { __typename: "Tree"; oid: string } | null => {
    const found = exists(oid);
    const type = found ? (store.objects.get(found)?.type ?? git(["cat-file", "-t", found])) : undefined;
    if (type === "commit") return { __typename: "Commit", oid };
    if (type === "blob") return { __typename: "Blob", oid };
    if (type === "tree") return { __typename: "Tree", oid };
    return null;
  };
  const refNode = (qualifiedName: string) => {
    const short = qualifiedName.replace(/^refs\/heads\//, "");
    const oid = exists(`refs/heads/${short}`);
    return oid ? { name: short, prefix: "refs/heads/", target: { __typename: "Commit", oid } } : null;
  };
  const actor = (oid: string, who: "a" | "c") => {
    const { name: actorName, email, date } = commitInfo(oid)[who === "a" ? "author" : "committer"];
    return {
      name: actorName,
      email,
      date,
      avatarUrl: "https://avatars.githubusercontent.com/u/0",
      user: email === `${login}@users.noreply.github.com` ? { databaseId: USER_ID, login } : null,
    };
  };

  const drafts = fakePulls({
    owner,
    name,
    id: REPOSITORY_ID,
    login,
    userId: USER_ID,
    resolve,
    blobAt: (commit, file) => exists(`${commit}:${file}`),
    changedFiles,
    merge,
  });

  const resolvers = {
    repository: (args: { owner: string; name: string }) =>
      args.owner === owner && args.name === name
        ? {
            id: REPOSITORY_ID,
            nameWithOwner: `${owner}/${name}`,
            pullRequests: (a: Parameters<typeof drafts.pullRequests>[0]) => drafts.pullRequests(a),
            defaultBranchRef: () => refNode(branch),
            ref: (a: { qualifiedName: string }) => refNode(a.qualifiedName),
            object: (a: { oid?: string; expression?: string }) => objectNode(a.oid ?? a.expression ?? ""),
          }
        : null,
    createCommitOnBranch: ({ input }: { input: CommitInput }) => createCommit(input),
    createRef: ({ input }: { input: { repositoryId: string; name: string; oid: string } }) => createRef(input),
    ...drafts.mutations,
  };

  /** GraphQL's createRef: a new branch at a commit (GitHub's errors for another repository, a bad name, an existing ref). */
  function createRef(input: { repositoryId: string; name: string; oid: string }) {
    if (input.repositoryId !== REPOSITORY_ID)
      throw new GraphQLError(`Could not resolve to a node with the global id of '${input.repositoryId}'`, {
        extensions: { type: "NOT_FOUND" },
      });
    if (!/^refs\/heads\/[\w./%-]+$/.test(input.name) || input.name.includes(".."))
      throw new GraphQLError(`Invalid reference name '${input.name}'.`, { extensions: { type: "UNPROCESSABLE" } });
    if (!resolve(input.oid))
      throw new GraphQLError(`Could not resolve to a commit with the id of '${input.oid}'`, { extensions: { type: "NOT_FOUND" } });
    if (store.refs.has(input.name))
      throw new GraphQLError(`A ref named "${input.name}" already exists in the repository.`, { extensions: { type: "UNPROCESSABLE" } });
    // An empty old value: git refuses if the ref appeared meanwhile.
    moveRef(input.name, input.oid, "");
    store = readStore();
    return { ref: refNode(input.name) };
  }

  type CommitInput = {
    branch: { repositoryNameWithOwner?: string; branchName?: string };
    expectedHeadOid: string;
    fileChanges?: { additions?: Array<{ path: string; contents: string }>; deletions?: Array<{ path: string }> };
    message: { headline: string; body?: string };
  };

  /** GraphQL's createCommitOnBranch, on any branch of the repository: checked against its head, as GitHub does. */
  function createCommit(input: CommitInput) {
    const ref = `refs/heads/${input.branch.branchName ?? ""}`;
    const current = store.refs.get(ref);
    if (input.branch.repositoryNameWithOwner !== `${owner}/${name}` || !current) {
      throw new GraphQLError(`Could not resolve to a Ref with the name ${ref}.`, {
        extensions: { type: "NOT_FOUND" },
      });
    }
    if (input.expectedHeadOid !== current) {
      throw new GraphQLError(`Expected branch to point to "${input.expectedHeadOid}" but it did not. Pull and try again.`, {
        extensions: { type: "STALE_DATA" },
      });
    }
    const deletions = (input.fileChanges?.deletions ?? []).map(({ path: file }) => file);
    const additions = (input.fileChanges?.additions ?? []).map(({ path: file, contents }) => {
      if (file.split("/").includes("..") || path.isAbsolute(file)) throw new GraphQLError(`Invalid path: ${file}`);
      return { path: file, bytes: Buffer.from(contents, "base64") };
    });
    const message = input.message.body ? `${input.message.headline}\n\n${input.message.body}` : input.message.headline;
    const oid = commitOf(current, deletions, additions, message);
    moveRef(ref, oid, current);
    store = readStore();
    commits.push({
      oid,
      headline: input.message.headline,
      paths: [...deletions, ...additions.map((a) => a.path)],
      branch: input.branch.branchName ?? "",
    });
    return { commit: { __typename: "Commit", oid }, ref: refNode(ref) };
  }

  // Fields of Commit and Blob, resolved from the copy when asked (graphql-js calls a function-valued field).
  const commitFields = {
    message: (c: CommitNode) => commitInfo(c.oid).message,
    messageHeadline: (c: CommitNode) => commitInfo(c.oid).headline,
    committedDate: (c: CommitNode) => commitInfo(c.oid).committer.date,
    author: (c: CommitNode) => actor(c.oid, "a"),
    committer: (c: CommitNode) => actor(c.oid, "c"),
    history: (c: CommitNode, args: { first?: number; path?: string }) => {
      const oids = history(c.oid, args.first ?? 100, args.path);
      return { nodes: oids.map((oid) => ({ __typename: "Commit", oid })), totalCount: oids.length };
    },
    // What a host or CI posted on the commit (REST, as they post it); no GitHub App posts check runs here.
    status: (c: CommitNode) => drafts.commitStatus(c.oid),
    deployments: (c: CommitNode, args: { last?: number; orderBy?: { direction: string } }) => drafts.commitDeployments(c.oid, args),
    checkSuites: () => ({ nodes: [] }),
    file: (c: CommitNode, args: { path: string }) => {
      const oid = exists(`${c.oid}:${args.path}`);
      return oid ? { oid, path: args.path, name: path.basename(args.path) } : null;
    },
  };
  const blobFields = {
    byteSize: (b: BlobNode) => blobBytes(b.oid).length,
    isBinary: (b: BlobNode) => blobBytes(b.oid).includes(0),
    isTruncated: (b: BlobNode) => blobBytes(b.oid).length > MAX_BLOB_TEXT,
    text: (b: BlobNode) => {
      const bytes = blobBytes(b.oid);
      return bytes.includes(0) ? null : bytes.subarray(0, MAX_BLOB_TEXT).toString("utf8");
    },
  };

  // graphql-js's default field resolver reads properties; function properties get (args), so
  // wrap the git-backed objects to answer each field through the tables above.
  const withFields = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(withFields);
    if (!value || typeof value !== "object") return value;
    const node = value as { __typename?: string; oid?: string };
    const table = node.__typename === "Commit" ? commitFields : node.__typename === "Blob" ? blobFields : undefined;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(node as Record<string, unknown>))
      out[key] = typeof field === "function" ? (args: object) => withFields((field as (a: object) => unknown)(args)) : withFields(field);
    if (table)
      for (const [key, field] of Object.entries(table))
        out[key] = (args: object) => withFields((field as (n: typeof node, a: object) => unknown)(node, args));
    return out;
  };

  const cors = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "ETag, Link, Location, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset",
  };
  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    const bytes = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    res.writeHead(status, {
      ...cors,
      ...(bytes && !headers["Content-Type"] ? { "Content-Type": "application/json; charset=utf-8" } : {}),
      ...headers,
    });
    res.end(bytes);
  };
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const record: FakeRequest = { method: req.method ?? "GET", path: url.pathname };
    requests.push(record);
    if (req.method === "OPTIONS") {
      return send(res, 204, undefined, {
        "Access-Control-Allow-Methods": "GET, POST, PATCH, PUT, DELETE",
        "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, If-None-Match",
        "Access-Control-Max-Age": "86400",
      });
    }
    if (url.pathname.startsWith("/login/oauth/")) return oauth(req, res, url);
    // avatars.githubusercontent.com: a user's picture (a grey 8×8 PNG).
    if (req.method === "GET" && /^\/u\/\d+$/.test(url.pathname)) return send(res, 200, AVATAR, { "Content-Type": "image/png" });
    // www.githubstatus.com, which the editor asks whether GitHub is having an outage.
    if (url.pathname === "/api/v2/status.json")
      return send(res, 200, { status: { indicator: "none", description: "All Systems Operational" } });
    if (req.headers.authorization !== `token ${token}` && req.headers.authorization !== `Bearer ${token}`) {
      return send(res, 401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest", status: "401" });
    }
    const repoPrefix = `/repos/${owner}/${name}`;
    // A write with a token whose sign-in did not grant it (the repository is public: public_repo or repo).
    const write = req.method !== "GET" && req.method !== "HEAD";
    if (write && url.pathname !== "/graphql" && !mayWrite()) {
      refused.push({ ...record, operation: `the token's scopes (${(scopes ?? []).join(", ")}) allow no write` });
      return send(res, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" }, scopeHeaders());
    }
    if (req.method === "GET" && url.pathname === "/user") {
      return send(res, 200, {
        login,
        id: USER_ID,
        name: "Editor Volunteer",
        email: null,
        avatar_url: "https://avatars.githubusercontent.com/u/0",
        html_url: `https://github.com/${login}`,
        type: "User",
      });
    }
    if (req.method === "GET" && url.pathname === `${repoPrefix}/collaborators/${login}`) return send(res, 204);
    const tree = new RegExp(`^${repoPrefix}/git/trees/([^/]+)$`).exec(url.pathname);
    if (req.method === "GET" && tree) {
      const rev = decodeURIComponent(tree[1]!);
      const oid = exists(`${rev}^{tree}`);
      if (!oid) return send(res, 404, { message: "Not Found", status: "404" });
      const recursive = url.searchParams.has("recursive");
      const lines = git(["ls-tree", "-l", ...(recursive ? ["-r", "-t"] : []), oid])
        .split("\n")
        .filter(Boolean);
      return send(res, 200, {
        sha: oid,
        url: `https://api.github.com${repoPrefix}/git/trees/${oid}`,
        tree: lines.map((line) => {
          const [meta = "", file = ""] = line.split("\t");
          const [mode, type, sha, size] = meta.split(/\s+/);
          return { path: file, mode, type, sha, ...(type === "blob" ? { size: Number(size) } : {}) };
        }),
        truncated: false,
      });
    }
    const blob = new RegExp(`^${repoPrefix}/git/blobs/([0-9a-f]{40})$`).exec(url.pathname);
    if (req.method === "GET" && blob) {
      if (!exists(blob[1]!)) return send(res, 404, { message: "Not Found", status: "404" });
      const bytes = blobBytes(blob[1]!);
      if (/raw/.test(req.headers.accept ?? "")) return send(res, 200, bytes, { "Content-Type": "application/octet-stream" });
      return send(res, 200, { sha: blob[1], size: bytes.length, encoding: "base64", content: bytes.toString("base64") });
    }
    const ref = new RegExp(`^${repoPrefix}/git/refs/(heads/.+)$`).exec(url.pathname);
    if (ref && (req.method === "PATCH" || req.method === "DELETE")) {
      const body = req.method === "PATCH" ? (JSON.parse((await readBody(req)) || "{}") as { sha?: string; force?: boolean }) : {};
      const answer = moveRefByRest(`refs/${decodeURIComponent(ref[1]!)}`, req.method, body);
      if (answer.status >= 400) refused.push({ ...record, operation: JSON.stringify(answer.body) });
      return send(res, answer.status, answer.body);
    }
    if (req.method === "POST" && url.pathname === "/graphql") {
      const { query, variables } = JSON.parse(await readBody(req)) as { query: string; variables?: Record<string, unknown> };
      record.operation = /^\s*(query|mutation)/.exec(query)?.[1] ?? "query";
      record.query = query.replace(/\s+/g, " ").trim();
      if (record.operation === "mutation" && !mayWrite()) {
        refused.push({ ...record, operation: `mutation: the token's scopes (${(scopes ?? []).join(", ")}) allow no write` });
        const message = `Your token has not been granted the required scopes to execute this query. The mutation requires one of the following scopes: ['public_repo', 'repo'], but your token has only been granted the: [${(scopes ?? []).map((s) => `'${s}'`).join(", ")}] scopes.`;
        return send(res, 200, { errors: [{ type: "INSUFFICIENT_SCOPES", message }] }, scopeHeaders());
      }
      const result = await graphql({
        schema: SCHEMA,
        source: query,
        variableValues: variables,
        rootValue: Object.fromEntries(
          Object.entries(resolvers).map(([field, resolver]) => [field, (a: never) => withFields((resolver as (a: never) => unknown)(a))]),
        ),
      });
      // GitHub's own refusals (a stale head, an existing ref) carry a type; anything else is a query the fake does not know.
      for (const error of result.errors ?? []) (error.extensions.type ? refused : unhandled).push({ ...record, operation: error.message });
      return send(res, 200, {
        ...(result.data !== undefined ? { data: result.data } : {}),
        ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}),
      });
    }
    const body = write ? (JSON.parse((await readBody(req)) || "{}") as Record<string, unknown>) : {};
    const answer = drafts.rest(req.method ?? "GET", url.pathname, body);
    if (answer) {
      if (answer.status >= 400) refused.push({ ...record, operation: JSON.stringify(answer.body) });
      return send(res, answer.status, answer.body);
    }
    unhandled.push(record);
    return send(res, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" });
  }

  /** REST's update (PATCH, fast-forward unless forced) and deletion of a branch, with GitHub's 422s. */
  function moveRefByRest(refName: string, method: string, body: { sha?: string; force?: boolean }): { status: number; body?: unknown } {
    const unprocessable = (message: string) => ({
      status: 422,
      body: { message, documentation_url: "https://docs.github.com/rest", status: "422" },
    });
    const current = store.refs.get(refName);
    if (!current) return unprocessable("Reference does not exist");
    if (method === "DELETE") {
      if (refName === checkedOut) return unprocessable("Cannot delete the default branch");
      git(["update-ref", "-d", refName, current]);
      store = readStore();
      return { status: 204 };
    }
    const next = body.sha && resolve(body.sha);
    if (!next) return unprocessable("Object does not exist");
    const fastForward = spawnSync("git", ["merge-base", "--is-ancestor", current, next], { cwd: repoDir, env: gitEnv }).status === 0;
    if (!fastForward && body.force !== true) return unprocessable("Update is not a fast forward");
    moveRef(refName, next, current);
    store = readStore();
    const api = `https://api.github.com/repos/${owner}/${name}`;
    return {
      status: 200,
      body: {
        ref: refName,
        node_id: "REF_fake",
        url: `${api}/git/${refName}`,
        object: { sha: next, type: "commit", url: `${api}/git/commits/${next}` },
      },
    };
  }

  const html = (res: ServerResponse, status: number, title: string, body: string) =>
    send(
      res,
      status,
      Buffer.from(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`),
      {
        "Content-Type": "text/html; charset=utf-8",
      },
    );
  const attribute = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  /** github.com/login/oauth/…: the authorize page (GET), its form (POST), and the code's exchange. */
  async function oauth(req: IncomingMessage, res: ServerResponse, url: URL) {
    const app = options.oauthApp;
    if (url.pathname === "/login/oauth/authorize" && req.method === "GET") {
      const query = Object.fromEntries(url.searchParams);
      // GitHub's own wording for an unknown client id.
      if (!app || query.client_id !== app.clientId)
        return html(res, 404, "Not Found", "<h1>404</h1><p>This is not the web page you are looking for.</p>");
      if (!callbackUrl) {
        unhandled.push({ method: "GET", path: `${url.pathname} (the OAuth app has no callback URL registered)` });
        return html(res, 500, "Error", "<h1>The OAuth app has no callback URL</h1>");
      }
      const authorization: FakeAuthorization = {
        clientId: query.client_id,
        redirectUri: query.redirect_uri ?? "",
        scope: query.scope ?? "",
        state: query.state ?? "",
      };
      authorizations.push(authorization);
      // No redirect_uri: the registered callback. One it does not allow: GitHub's error, at the callback.
      query.redirect_uri ??= callbackUrl;
      if (!callbackAllows(callbackUrl, query.redirect_uri)) {
        authorization.refused = "redirect_uri_mismatch";
        const back = new URL(callbackUrl);
        back.search = new URLSearchParams({
          error: "redirect_uri_mismatch",
          error_description: "The redirect_uri MUST match the registered callback URL for this application.",
          error_uri: "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#redirect-uri-mismatch",
          state: query.state ?? "",
        }).toString();
        return send(res, 302, undefined, { Location: back.href });
      }
      const hidden = ["redirect_uri", "scope", "state"]
        .map((name) => `<input type="hidden" name="${name}" value="${attribute(query[name] ?? "")}">`)
        .join("");
      return html(
        res,
        200,
        `Authorize application`,
        `<main style="font-family:sans-serif;max-width:28rem;margin:3rem auto;text-align:center">
<h1>Authorize ${attribute(app.name)}</h1>
<p>${attribute(app.name)} by the site's maintainers wants to access your <b>${attribute(login)}</b> account.</p>
<p>Repositories: ${query.scope === "repo" ? "public and private" : "public"} (read and write)</p>
<form method="post" action="/login/oauth/authorize">${hidden}
<button name="decision" value="deny">Cancel</button> <button name="decision" value="allow">Authorize ${attribute(login)}</button>
</form>
<p>Authorizing will redirect to ${attribute(new URL(query.redirect_uri ?? "http://invalid").origin)}</p>
</main>`,
      );
    }
    if (url.pathname === "/login/oauth/authorize" && req.method === "POST") {
      const form = new URLSearchParams(await readBody(req));
      // The form only carries what the authorize page allowed; a hand-made post is held to the same rule.
      if (!callbackUrl || !callbackAllows(callbackUrl, form.get("redirect_uri") ?? "")) {
        unhandled.push({ method: "POST", path: `${url.pathname} (a redirect_uri the app does not allow)` });
        return html(res, 400, "Error", "<h1>Bad redirect_uri</h1>");
      }
      const back = new URL(form.get("redirect_uri") ?? "");
      const state = form.get("state") ?? "";
      if (form.get("decision") === "allow") {
        const code = randomBytes(10).toString("hex");
        codes.set(code, { redirectUri: back.href, scope: form.get("scope") ?? "" });
        back.search = new URLSearchParams({ code, state }).toString();
      } else {
        back.search = new URLSearchParams({
          error: "access_denied",
          error_description: "The user has denied your application access.",
          error_uri: "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#access-denied",
          state,
        }).toString();
      }
      return send(res, 302, undefined, { Location: back.href });
    }
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      const text = await readBody(req);
      const form = /json/.test(req.headers["content-type"] ?? "")
        ? new URLSearchParams(JSON.parse(text) as Record<string, string>)
        : new URLSearchParams(text);
      const code = form.get("code") ?? "";
      const given = codes.get(code);
      // GitHub answers errors with 200 too, as JSON when asked for it, else form-encoded.
      let answer: Record<string, string>;
      if (!app || form.get("client_id") !== app.clientId || form.get("client_secret") !== app.clientSecret) {
        answer = { error: "incorrect_client_credentials", error_description: "The client_id and/or client_secret passed are incorrect." };
      } else if (!given) {
        answer = { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." };
      } else if (form.has("redirect_uri") && form.get("redirect_uri") !== given.redirectUri.replace(/\?.*$/, "")) {
        answer = {
          error: "redirect_uri_mismatch",
          error_description: "The redirect_uri MUST match the registered callback URL for this application.",
        };
      } else {
        codes.delete(code);
        answer = { access_token: token, token_type: "bearer", scope: given.scope };
        scopes = given.scope.split(/[\s,]+/).filter(Boolean);
      }
      exchanges.push({
        clientId: form.get("client_id") ?? "",
        code,
        redirectUri: form.get("redirect_uri") ?? undefined,
        answer: answer.error ?? "token",
      });
      if (/json/.test(req.headers.accept ?? "")) return send(res, 200, answer);
      return send(res, 200, Buffer.from(new URLSearchParams(answer).toString()), {
        "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
      });
    }
    unhandled.push({ method: req.method ?? "", path: url.pathname });
    return html(res, 404, "Not Found", "<h1>404</h1>");
  }

  const server = await startLoopbackServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      unhandled.push({ method: req.method ?? "", path: `${req.url ?? ""} (${String(error)})` });
      if (!res.headersSent) send(res, 500, { message: "Server Error" });
    });
  });
  return {
    url: server.origin,
    requests,
    unhandled,
    refused,
    commits,
    pulls: drafts.pulls,
    deployments: drafts.deployments,
    statuses: drafts.statuses,
    authorizations,
    exchanges,
    registerCallback: (url) => void (callbackUrl = url),
    close: server.close,
  };
}

/** Makes `dir` a git repository whose `branch` holds its files as one first commit. */
export function initRepository(dir: string, branch: string): void {
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, stdio: "pipe", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
  rmSync(path.join(dir, ".git"), { recursive: true, force: true });
  git("init", "-q", "-b", branch);
  git("-c", "user.name=Site", "-c", "user.email=site@example.org", "add", "-A");
  git("-c", "user.name=Site", "-c", "user.email=site@example.org", "commit", "-q", "-m", "The site as it is");
}
