// The fake GitHub's pull requests, their labels, and the deployments and commit statuses posted on
// commits (tests/fakes/github.ts holds the repository, the REST routing and GraphQL): what the content
// editor's drafts (Sveltia CMS's editorial workflow) read and write, in GitHub's own paths, shapes and
// GraphQL fields. A pull request's head is its branch as it is now; a merge is a real merge commit on
// the base branch (the repository's `merge`). Deployments and statuses are posted as GitHub Actions
// or Render post them (REST, with a token), so a test sets them the same way.
import { GraphQLError } from "graphql";

/** The repository the pull requests belong to, as tests/fakes/github.ts keeps it. */
export type PullsRepo = {
  owner: string;
  name: string;
  /** The GraphQL node id of the repository (Repository.id). */
  id: string;
  /** The signed-in volunteer, who opens, labels and merges. */
  login: string;
  userId: number;
  /** A branch's head, or a commit's id given in full. */
  resolve: (ref: string) => string | undefined;
  /** The files `head` changes since it left `base` (GitHub's "files changed": against their merge base). */
  changedFiles: (base: string, head: string) => { path: string; status: "added" | "modified" | "removed" | "renamed"; previous?: string }[];
  /** The id of the blob at `file` in `commit`, if there is one. */
  blobAt: (commit: string, file: string) => string | undefined;
  /** Merges `head` into the branch `base` with a real commit; undefined when git cannot (a conflict). */
  merge: (base: string, head: string, message: string, squash: boolean) => string | undefined;
};

export type FakePullRequest = {
  number: number;
  nodeId: string;
  title: string;
  body: string;
  /** The head branch (in this repository: drafts never come from a fork). */
  head: string;
  base: string;
  draft: boolean;
  state: "open" | "closed";
  merged: boolean;
  mergeCommitSha?: string;
  labels: string[];
  /** The head's commit when last seen (it stays once the branch is deleted). */
  headSha: string;
  createdAt: string;
  updatedAt: string;
};

export type FakeDeploymentStatus = { state: string; environmentUrl?: string; logUrl?: string; description?: string };
export type FakeDeployment = { id: number; sha: string; ref: string; environment: string; statuses: FakeDeploymentStatus[] };
export type FakeCommitStatus = { sha: string; state: string; context: string; targetUrl?: string; description?: string };

/** GraphQL's part: the types and fields of GitHub's schema the editor's drafts use (added to tests/fakes/github.ts's). */
export const PULLS_SCHEMA = `
  enum PullRequestState { CLOSED MERGED OPEN }
  enum IssueOrderField { COMMENTS CREATED_AT UPDATED_AT }
  input IssueOrder { field: IssueOrderField!  direction: OrderDirection! }
  enum PatchStatus { ADDED CHANGED COPIED DELETED MODIFIED RENAMED }
  interface Actor { login: String!  avatarUrl(size: Int): URI! }
  type Label { name: String! }
  type LabelConnection { nodes: [Label]  totalCount: Int! }
  type PullRequestChangedFile { path: String!  changeType: PatchStatus! }
  type PullRequestChangedFileConnection { nodes: [PullRequestChangedFile]  totalCount: Int! }
  type PullRequest {
    id: ID!
    number: Int!
    title: String!
    url: URI!
    state: PullRequestState!
    merged: Boolean!
    isDraft: Boolean!
    isCrossRepository: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
    headRefName: String!
    headRefOid: GitObjectID!
    baseRefName: String!
    author: Actor
    labels(first: Int): LabelConnection
    files(first: Int): PullRequestChangedFileConnection
  }
  type PullRequestConnection { nodes: [PullRequest]  totalCount: Int! }
  input CreateRefInput { repositoryId: ID!  name: String!  oid: GitObjectID!  clientMutationId: String }
  type CreateRefPayload { ref: Ref  clientMutationId: String }
  input ConvertPullRequestToDraftInput { pullRequestId: ID!  clientMutationId: String }
  type ConvertPullRequestToDraftPayload { pullRequest: PullRequest  clientMutationId: String }
  input MarkPullRequestReadyForReviewInput { pullRequestId: ID!  clientMutationId: String }
  type MarkPullRequestReadyForReviewPayload { pullRequest: PullRequest  clientMutationId: String }
`;

/** GitHub's timestamps: ISO 8601 in UTC, to the second. */
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

export type RestAnswer = { status: number; body?: unknown };

/** The pull requests, labels, deployments and statuses of one fake repository. */
export function fakePulls(repo: PullsRepo) {
  const pulls: FakePullRequest[] = [];
  const deployments: FakeDeployment[] = [];
  const statuses: FakeCommitStatus[] = [];
  /** The repository's labels (GitHub makes one the first time it is put on an issue), by name: their ids. */
  const labelIds = new Map<string, number>();
  const api = `https://api.github.com/repos/${repo.owner}/${repo.name}`;
  const web = `https://github.com/${repo.owner}/${repo.name}`;
  const user = {
    login: repo.login,
    id: repo.userId,
    node_id: `U_fake${repo.userId}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${repo.userId}`,
    type: "User",
  };

  /** The head as the branch has it now (remembered, for when the branch is deleted). */
  const headOf = (pr: FakePullRequest) => {
    const sha = pr.state === "open" ? repo.resolve(pr.head) : undefined;
    if (sha) pr.headSha = sha;
    return pr.headSha;
  };
  const touch = (pr: FakePullRequest) => void (pr.updatedAt = now());
  const byNumber = (n: string | number) => pulls.find((pr) => pr.number === Number(n));
  const labelJson = (name: string) => {
    if (!labelIds.has(name)) labelIds.set(name, 7_000 + labelIds.size);
    const id = labelIds.get(name)!;
    return {
      id,
      node_id: `LA_fake${id}`,
      url: `${api}/labels/${encodeURIComponent(name)}`,
      name,
      color: "ededed",
      default: false,
      description: null,
    };
  };
  const branchJson = (ref: string, sha: string) => ({ label: `${repo.owner}:${ref}`, ref, sha, user });
  const pullJson = (pr: FakePullRequest) => ({
    url: `${api}/pulls/${pr.number}`,
    id: 90_000 + pr.number,
    node_id: pr.nodeId,
    html_url: `${web}/pull/${pr.number}`,
    number: pr.number,
    state: pr.state,
    locked: false,
    title: pr.title,
    user,
    body: pr.body,
    labels: pr.labels.map(labelJson),
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
    closed_at: pr.state === "closed" ? pr.updatedAt : null,
    merged_at: pr.merged ? pr.updatedAt : null,
    merge_commit_sha: pr.mergeCommitSha ?? null,
    draft: pr.draft,
    head: branchJson(pr.head, headOf(pr)),
    base: branchJson(pr.base, repo.resolve(pr.base) ?? ""),
    merged: pr.merged,
  });
  const issueJson = (pr: FakePullRequest) => ({
    url: `${api}/issues/${pr.number}`,
    id: 80_000 + pr.number,
    node_id: `I_fake${pr.number}`,
    html_url: `${web}/pull/${pr.number}`,
    number: pr.number,
    title: pr.title,
    user,
    labels: pr.labels.map(labelJson),
    state: pr.state,
    body: pr.body,
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
    pull_request: { url: `${api}/pulls/${pr.number}`, html_url: `${web}/pull/${pr.number}`, merged_at: pr.merged ? pr.updatedAt : null },
  });
  /** GitHub's 422, with its list of what was wrong. */
  const invalid = (message: string, errors: object[] = []): RestAnswer => ({
    status: 422,
    body: { message, errors, documentation_url: "https://docs.github.com/rest", status: "422" },
  });
  const notFound: RestAnswer = {
    status: 404,
    body: { message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" },
  };
  const stringList = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

  function createPull(body: Record<string, unknown>): RestAnswer {
    const head = String(body.head ?? "").replace(new RegExp(`^${repo.owner}:`), "");
    const base = String(body.base ?? "");
    if (!repo.resolve(base)) return invalid("Validation Failed", [{ resource: "PullRequest", field: "base", code: "invalid" }]);
    const headSha = repo.resolve(head);
    if (!headSha) return invalid("Validation Failed", [{ resource: "PullRequest", field: "head", code: "invalid" }]);
    if (pulls.some((pr) => pr.state === "open" && pr.head === head && pr.base === base))
      return invalid("Validation Failed", [
        { resource: "PullRequest", code: "custom", message: `A pull request already exists for ${repo.owner}:${head}.` },
      ]);
    if (repo.changedFiles(base, head).length === 0)
      return invalid("Validation Failed", [{ resource: "PullRequest", code: "custom", message: `No commits between ${base} and ${head}` }]);
    const number = pulls.length + 1;
    const pr: FakePullRequest = {
      number,
      nodeId: `PR_fake${number}`,
      title: String(body.title ?? ""),
      body: typeof body.body === "string" ? body.body : "",
      head,
      base,
      draft: body.draft === true,
      state: "open",
      merged: false,
      labels: [],
      headSha,
      createdAt: now(),
      updatedAt: now(),
    };
    pulls.push(pr);
    return { status: 201, body: pullJson(pr) };
  }

  function mergePull(pr: FakePullRequest, body: Record<string, unknown>): RestAnswer {
    const method = body.merge_method ?? "merge";
    if (method !== "merge" && method !== "squash") return invalid(`Merge method ${String(method)} is not supported by this fake`);
    if (pr.state !== "open" || pr.merged) return { status: 405, body: { message: "Pull Request is not mergeable", status: "405" } };
    if (pr.draft) return { status: 405, body: { message: "Pull Request is still a draft", status: "405" } };
    if (typeof body.sha === "string" && body.sha !== headOf(pr))
      return { status: 409, body: { message: "Head branch was modified. Review and try the merge again.", status: "409" } };
    // GitHub's title and body of a merge commit, unless the call gives its own.
    const title =
      typeof body.commit_title === "string"
        ? body.commit_title
        : method === "squash"
          ? `${pr.title} (#${pr.number})`
          : `Merge pull request #${pr.number} from ${repo.owner}/${pr.head}`;
    const text = typeof body.commit_message === "string" ? body.commit_message : pr.title;
    const sha = repo.merge(pr.base, headOf(pr), text ? `${title}\n\n${text}` : title, method === "squash");
    if (!sha) return { status: 405, body: { message: "Pull Request is not mergeable", status: "405" } };
    Object.assign(pr, { state: "closed", merged: true, mergeCommitSha: sha });
    touch(pr);
    return { status: 200, body: { sha, merged: true, message: "Pull Request successfully merged" } };
  }

  /** The REST calls: an answer, or undefined for a path that is not one of these. */
  function rest(method: string, pathname: string, body: Record<string, unknown>): RestAnswer | undefined {
    const prefix = `/repos/${repo.owner}/${repo.name}`;
    if (!pathname.startsWith(`${prefix}/`)) return undefined;
    const route = pathname.slice(prefix.length);
    let match: RegExpExecArray | null;
    if (method === "POST" && route === "/pulls") return createPull(body);
    if ((match = /^\/pulls\/(\d+)$/.exec(route))) {
      const pr = byNumber(match[1]!);
      if (!pr) return notFound;
      if (method === "GET") return { status: 200, body: pullJson(pr) };
      if (method === "PATCH") {
        if (body.state === "closed" || body.state === "open") pr.state = body.state;
        if (typeof body.title === "string") pr.title = body.title;
        if (typeof body.body === "string") pr.body = body.body;
        touch(pr);
        return { status: 200, body: pullJson(pr) };
      }
    }
    // The files a pull request changes (the editor asks only when one was renamed, for its old path): the
    // fields the fake computes, without GitHub's line counts and patch.
    if (method === "GET" && (match = /^\/pulls\/(\d+)\/files$/.exec(route))) {
      const pr = byNumber(match[1]!);
      if (!pr) return notFound;
      const head = headOf(pr);
      const files = repo.changedFiles(pr.base, head).map((file) => ({
        // A removed file: the blob it had on the base (nothing the editor reads).
        sha: repo.blobAt(head, file.path) ?? repo.blobAt(pr.base, file.path) ?? "",
        filename: file.path,
        status: file.status,
        ...(file.previous ? { previous_filename: file.previous } : {}),
      }));
      return { status: 200, body: files };
    }
    if (method === "PUT" && (match = /^\/pulls\/(\d+)\/merge$/.exec(route))) {
      const pr = byNumber(match[1]!);
      return pr ? mergePull(pr, body) : notFound;
    }
    if ((match = /^\/issues\/(\d+)$/.exec(route))) {
      const pr = byNumber(match[1]!);
      if (!pr) return notFound;
      if (method === "GET") return { status: 200, body: issueJson(pr) };
      if (method === "PATCH") {
        if ("labels" in body) pr.labels = [...new Set(stringList(body.labels))];
        touch(pr);
        return { status: 200, body: issueJson(pr) };
      }
    }
    if (method === "POST" && (match = /^\/issues\/(\d+)\/labels$/.exec(route))) {
      const pr = byNumber(match[1]!);
      if (!pr) return notFound;
      pr.labels = [...new Set([...pr.labels, ...stringList(body.labels)])];
      touch(pr);
      return { status: 200, body: pr.labels.map(labelJson) };
    }
    if (method === "POST" && route === "/deployments") {
      const sha = repo.resolve(String(body.ref ?? ""));
      if (!sha) return invalid(`No ref found for: ${String(body.ref ?? "")}`);
      const deployment: FakeDeployment = {
        id: 60_000 + deployments.length + 1,
        sha,
        ref: String(body.ref),
        environment: typeof body.environment === "string" ? body.environment : "production",
        statuses: [],
      };
      deployments.push(deployment);
      return {
        status: 201,
        body: { id: deployment.id, node_id: `DE_fake${deployment.id}`, sha, ref: deployment.ref, environment: deployment.environment },
      };
    }
    if (method === "POST" && (match = /^\/deployments\/(\d+)\/statuses$/.exec(route))) {
      const deployment = deployments.find((d) => d.id === Number(match![1]));
      if (!deployment) return notFound;
      const state = String(body.state ?? "");
      if (!["error", "failure", "inactive", "in_progress", "queued", "pending", "success"].includes(state))
        return invalid("Validation Failed");
      const status: FakeDeploymentStatus = {
        state,
        ...(typeof body.environment_url === "string" ? { environmentUrl: body.environment_url } : {}),
        ...(typeof body.log_url === "string" ? { logUrl: body.log_url } : {}),
        ...(typeof body.description === "string" ? { description: body.description } : {}),
      };
      deployment.statuses.push(status);
      return {
        status: 201,
        body: { state, environment_url: status.environmentUrl ?? "", deployment_url: `${api}/deployments/${deployment.id}` },
      };
    }
    if (method === "POST" && (match = /^\/statuses\/([0-9a-f]{40})$/.exec(route))) {
      const state = String(body.state ?? "");
      if (!repo.resolve(match[1]!)) return invalid(`No commit found for SHA: ${match[1]!}`);
      if (!["error", "failure", "pending", "success"].includes(state)) return invalid("Validation Failed");
      const status: FakeCommitStatus = {
        sha: match[1]!,
        state,
        context: typeof body.context === "string" ? body.context : "default",
        ...(typeof body.target_url === "string" ? { targetUrl: body.target_url } : {}),
        ...(typeof body.description === "string" ? { description: body.description } : {}),
      };
      statuses.push(status);
      return { status: 201, body: { state, context: status.context, target_url: status.targetUrl ?? null } };
    }
    return undefined;
  }

  const prNode = (pr: FakePullRequest) => ({
    __typename: "PullRequest",
    id: pr.nodeId,
    number: pr.number,
    title: pr.title,
    url: `${web}/pull/${pr.number}`,
    state: pr.merged ? "MERGED" : pr.state.toUpperCase(),
    merged: pr.merged,
    isDraft: pr.draft,
    isCrossRepository: false,
    createdAt: pr.createdAt,
    updatedAt: pr.updatedAt,
    headRefName: pr.head,
    headRefOid: () => headOf(pr),
    baseRefName: pr.base,
    author: {
      __typename: "User",
      login: repo.login,
      avatarUrl: () => user.avatar_url,
      name: "Editor Volunteer",
      email: "",
      databaseId: repo.userId,
    },
    labels: ({ first = 100 }: { first?: number }) => ({
      nodes: pr.labels.slice(0, first).map((name) => ({ name })),
      totalCount: pr.labels.length,
    }),
    files: ({ first = 100 }: { first?: number }) => {
      const files = repo.changedFiles(pr.base, headOf(pr));
      const changeType = { added: "ADDED", modified: "MODIFIED", removed: "DELETED", renamed: "RENAMED" } as const;
      return {
        nodes: files.slice(0, first).map((file) => ({ path: file.path, changeType: changeType[file.status] })),
        totalCount: files.length,
      };
    },
  });

  type PullsArgs = {
    states?: string[];
    labels?: string[];
    headRefName?: string;
    first?: number;
    orderBy?: { field: string; direction: string };
  };
  /** Repository.pullRequests: GitHub's filters (any of the labels), newest first when asked. */
  function pullRequests({ states, labels, headRefName, first = 100, orderBy }: PullsArgs) {
    const state = (pr: FakePullRequest) => (pr.merged ? "MERGED" : pr.state.toUpperCase());
    let found = pulls.filter(
      (pr) =>
        (!states || states.includes(state(pr))) &&
        (!labels || pr.labels.some((label) => labels.includes(label))) &&
        (headRefName === undefined || pr.head === headRefName),
    );
    if (orderBy) {
      const key = orderBy.field === "UPDATED_AT" ? "updatedAt" : "createdAt";
      found = found.toSorted((a, b) => a[key].localeCompare(b[key]) || a.number - b.number);
      if (orderBy.direction === "DESC") found.reverse();
    }
    return { nodes: found.slice(0, first).map(prNode), totalCount: found.length };
  }

  const byNodeId = (id: string) => {
    const pr = pulls.find((candidate) => candidate.nodeId === id);
    if (!pr) throw new GraphQLError(`Could not resolve to a node with the global id of '${id}'`, { extensions: { type: "NOT_FOUND" } });
    return pr;
  };
  const setDraft =
    (draft: boolean) =>
    ({ input }: { input: { pullRequestId: string } }) => {
      const pr = byNodeId(input.pullRequestId);
      pr.draft = draft;
      touch(pr);
      return { pullRequest: prNode(pr) };
    };

  /** Commit.status: the latest status of each context, and their combined state (null when none was posted). */
  function commitStatus(sha: string) {
    const latest = new Map<string, FakeCommitStatus>();
    for (const status of statuses.filter((s) => s.sha === sha)) latest.set(status.context, status);
    if (latest.size === 0) return null;
    const contexts = [...latest.values()].map(({ context, state, targetUrl, description }) => ({
      context,
      state: state.toUpperCase(),
      targetUrl: targetUrl ?? null,
      description: description ?? null,
    }));
    const states = new Set(contexts.map((c) => c.state));
    const state = states.has("ERROR") || states.has("FAILURE") ? "FAILURE" : states.has("PENDING") ? "PENDING" : "SUCCESS";
    return { state, contexts };
  }

  /** Commit.deployments: those made for the commit, oldest first, each with its latest status. */
  function commitDeployments(sha: string, { last = 100, orderBy }: { last?: number; orderBy?: { direction: string } }) {
    const found = deployments.filter((d) => d.sha === sha);
    if (orderBy?.direction === "DESC") found.reverse();
    return {
      nodes: found.slice(-last).map((d) => {
        const latest = d.statuses.at(-1);
        return {
          environment: d.environment,
          latestStatus: latest
            ? { state: latest.state.toUpperCase(), environmentUrl: latest.environmentUrl ?? null, description: latest.description ?? null }
            : null,
        };
      }),
    };
  }

  return {
    pulls,
    deployments,
    statuses,
    rest,
    pullRequests,
    commitStatus,
    commitDeployments,
    mutations: { convertPullRequestToDraft: setDraft(true), markPullRequestReadyForReview: setDraft(false) },
  };
}
