// @ts-check
/* global fetch -- Node 20 has it */
// `npm run container:check`: builds the Dockerfile's image with podman, runs it, loads every page,
// and checks /healthz and the HEALTHCHECK, that the server runs as an unprivileged user under an
// init, and that SIGTERM stops it gracefully within 10 s. It removes the containers and the image
// it made; the base image (below) and npm's download cache are kept for the next run.
//
// There is no container registry here, so the official image the Dockerfile names (`FROM
// node:22-bookworm-slim AS node-official`) cannot be pulled. Unless this machine has it, the image is
// built on a STAND-IN for it instead: a root filesystem made from this machine's node and npm, the
// libraries node needs, Debian's static busybox (a shell and the usual commands), the CA bundle and a
// `node` user (uid 1000, as in the official images), imported with `podman import` and tagged by what
// is in it, and given the official image's name for the build only (the Dockerfile is built as it is,
// with no build argument). A real deploy builds on the official image.
// Settings that work here: ../shared/containers.md (runc, cgroupfs, host network).
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** Bump to rebuild the stand-in base (its tag changes). */
const BASE_RECIPE = 2;
/** Debian packages whose shared libraries go into the stand-in base (the official slim image has them). */
const RUNTIME_PACKAGES = ["libc6", "libgcc-s1", "libstdc++6"];
const PAGES = ["/", "/apply", "/about", "/contact", "/events", "/events?tab=past", "/portal", "/admin", "/sitemap.xml", "/robots.txt"];
const STOP_LIMIT_MS = 10_000;

const started = Date.now();
const work = mkdtempSync(path.join(tmpdir(), "container-check-"));
const run = `${process.pid}-${Date.now().toString(36)}`;
const image = `localhost/founders-site:check-${run}`;
const container = `founders-site-check-${run}`;
const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const say = (/** @type {string} */ text) => console.log(`::: [${seconds()}] ${text}`);

// containers.md: crun (podman's default) fails here, and so do cgroup limits through systemd.
const conf = path.join(work, "containers.conf");
writeFileSync(conf, '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\n');
const env = { ...process.env, CONTAINERS_CONF: conf };

/** Runs podman and returns its stdout; throws with its stderr when it fails. */
function podman(/** @type {string[]} */ args, { input = undefined, inherit = false } = {}) {
  const result = spawnSync("podman", ["--runtime", "runc", ...args], {
    env,
    input,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: inherit ? ["ignore", "inherit", "inherit"] : ["pipe", "pipe", "pipe"],
  });
  if (result.status !== 0) throw new Error(`podman ${args.join(" ")} failed (${result.status}):\n${result.stderr ?? ""}`);
  return (result.stdout ?? "").trim();
}

/** podman, runc, an init for --init (catatonit) and a static busybox for the stand-in base, from Debian. */
function ensureTools() {
  // Each command is in the Debian package of the same name.
  const missing = ["podman", "runc", "catatonit"].filter((command) => spawnSync("sh", ["-c", `command -v ${command}`]).status !== 0);
  const busybox = spawnSync("/bin/busybox", ["--list"], { encoding: "utf8" });
  const packages = [...missing, ...(busybox.status === 0 ? [] : ["busybox-static"])];
  if (packages.length === 0) return;
  say(`installing Debian's ${packages.join(", ")}`);
  const install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", ...packages];
  const [command = "apt-get", ...args] = process.getuid?.() === 0 ? install : ["sudo", ...install];
  execFileSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

/** The stand-in for the official Node image (see the top of this file); made once, then reused. */
function standInBase() {
  const nodeVersion = process.version.slice(1);
  const npmCli = realpathSync("/usr/bin/npm");
  const npmRoot = path.resolve(path.dirname(npmCli), "..");
  const npmVersion = /** @type {{ version: string }} */ (JSON.parse(readFileSync(path.join(npmRoot, "package.json"), "utf8"))).version;
  const tag = `localhost/site-node-base:node${nodeVersion}-npm${npmVersion}-r${BASE_RECIPE}`;
  if (spawnSync("podman", ["image", "exists", tag], { env }).status === 0) {
    say(`stand-in base ${tag} (kept from an earlier run)`);
    return tag;
  }
  say(`making the stand-in base ${tag}`);
  const root = path.join(work, "rootfs");
  const copy = (/** @type {string} */ from, to = from) => {
    mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
    copyFileSync(realpathSync(from), path.join(root, to));
  };
  for (const dir of ["bin", "usr/bin", "usr/local/bin", "etc/ssl/certs", "home/node", "root", "tmp", "lib64"])
    mkdirSync(path.join(root, dir), { recursive: true });
  copy("/bin/busybox");
  for (const applet of execFileSync("/bin/busybox", ["--list"], { encoding: "utf8" }).split("\n").filter(Boolean)) {
    if (applet !== "busybox") symlinkSync("busybox", path.join(root, "bin", applet));
  }
  symlinkSync("/bin/busybox", path.join(root, "usr/bin/env"));
  copy("/usr/bin/node");
  // The C and C++ runtimes an official (Debian) Node image has: what node links, and what native
  // modules (sharp, resvg, rollup) load, e.g. librt.
  const libraries = execFileSync("dpkg", ["-L", ...RUNTIME_PACKAGES], { encoding: "utf8" })
    .split("\n")
    .filter((file) => /\/lib[^/]*\.so[.\d]*$/.test(file) && !file.includes("/gconv/"));
  for (const line of execFileSync("ldd", ["/usr/bin/node"], { encoding: "utf8" }).split("\n")) {
    const library = /(\/\S+) \(0x/.exec(line)?.[1];
    if (library) libraries.push(library);
  }
  for (const library of new Set(libraries)) copy(library);
  cpSync(npmRoot, path.join(root, "usr/lib/node_modules/npm"), { recursive: true });
  symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", path.join(root, "usr/bin/npm"));
  symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", path.join(root, "usr/bin/npx"));
  copy("/etc/ssl/certs/ca-certificates.crt");
  writeFileSync(path.join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n");
  writeFileSync(path.join(root, "etc/group"), "root:x:0:\nnode:x:1000:\n");
  execFileSync("chmod", ["1777", path.join(root, "tmp")]);
  execFileSync("chown", ["1000:1000", path.join(root, "home/node")]);
  const tar = path.join(work, "rootfs.tar");
  execFileSync("tar", ["-C", root, "-cf", tar, "."]);
  podman([
    "import",
    "--change",
    "ENV PATH=/usr/local/bin:/usr/bin:/bin",
    "--change",
    `ENV NODE_VERSION=${nodeVersion}`,
    "--change",
    'CMD ["node"]',
    tar,
    tag,
  ]);
  rmSync(root, { recursive: true, force: true });
  rmSync(tar, { force: true });
  return tag;
}

/** The official image the Dockerfile's stages start from (its `FROM … AS node-official`), fully qualified as podman names it. */
function officialImage() {
  const named = /^FROM\s+(\S+)\s+AS\s+node-official\s*$/im.exec(readFileSync("Dockerfile", "utf8"))?.[1];
  if (!named) throw new Error("the Dockerfile names no official image (FROM <image> AS node-official)");
  const [first = "", ...rest] = named.split("/");
  if (rest.length > 0 && (first.includes(".") || first.includes(":") || first === "localhost")) return named;
  return rest.length > 0 ? `docker.io/${named}` : `docker.io/library/${named}`;
}

/** This machine's registry and certificate authority, as build secrets (never written into a layer). */
function npmSecrets() {
  const npm = (/** @type {string} */ key) => execFileSync("npm", ["config", "get", key], { encoding: "utf8" }).trim();
  const npmrc = path.join(work, "npmrc");
  const cafile = npm("cafile");
  const hasCa = cafile && cafile !== "null" && cafile !== "undefined";
  writeFileSync(npmrc, `registry=${npm("registry")}\n${hasCa ? "cafile=/run/secrets/npmca\n" : ""}`);
  return ["--secret", `id=npmrc,src=${npmrc}`, ...(hasCa ? ["--secret", `id=npmca,src=${cafile}`] : [])];
}

/** This process's hard limit on open files, as soft:hard. */
function openFilesLimit() {
  const hard = execFileSync("sh", ["-c", "ulimit -Hn"], { encoding: "utf8" }).trim();
  const limit = hard === "unlimited" ? "1048576" : hard;
  return `${limit}:${limit}`;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Waits for a condition, polling; names what it waited for when it gives up. */
async function waitFor(/** @type {string} */ what, /** @type {() => Promise<boolean>} */ check, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
}

const failures = /** @type {string[]} */ ([]);
const check = (/** @type {boolean} */ ok, /** @type {string} */ what) => {
  console.log(`${ok ? "PASS" : "FAIL"}  ${what}`);
  if (!ok) failures.push(what);
};

/** The stand-in's name as the official image, while this run builds; removed at the end (see the top of this file). */
let lent = /** @type {string | undefined} */ (undefined);

async function main() {
  ensureTools();
  const official = officialImage();
  if (spawnSync("podman", ["image", "exists", official], { env }).status === 0) say(`building on ${official} (this machine has it)`);
  else {
    const base = standInBase();
    podman(["tag", base, official]);
    lent = official;
    say(`building on the stand-in ${base}, named ${official} for this build`);
  }

  say(`building ${image} (Dockerfile)`);
  podman(
    [
      "build",
      "--network=host",
      "--pull=never",
      // Docker's format keeps the HEALTHCHECK (OCI's has no such field).
      "--format=docker",
      // No intermediate images left behind; npm's downloads stay in the build's cache mount.
      "--layers=false",
      // Podman builds with 1,024 open files by default, too few for Vite (imports fail to resolve);
      // give the build what this process may have, as podman run does.
      `--ulimit=nofile=${openFilesLimit()}`,
      ...npmSecrets(),
      "--tag",
      image,
      ".",
    ],
    { inherit: true },
  );
  check(
    spawnSync("podman", ["image", "exists", official], { env }).status === 0,
    `the base image ${official} is still there after the build (podman removes a bare stage's image: the Dockerfile's node-official stage has an instruction)`,
  );
  const config = JSON.parse(podman(["image", "inspect", "--format", "{{json .Config}}", image]));
  check(config.User === "node", `the image runs as the user node (USER ${config.User})`);
  check(
    JSON.stringify(config.Cmd) === '["node","server.js"]',
    `its process is node server.js, not npm (CMD ${JSON.stringify(config.Cmd)})`,
  );
  // Podman keeps a Docker-format image's HEALTHCHECK beside its config.
  const healthcheck = /** @type {Array<{ Healthcheck?: { Test?: string[] } }>} */ (JSON.parse(podman(["image", "inspect", image])))[0]
    ?.Healthcheck;
  check(Boolean(healthcheck?.Test?.join(" ").includes("/healthz")), "it has a HEALTHCHECK on /healthz");
  check(Object.keys(config.Volumes ?? {}).includes("/app/.data"), "the saved copy's folder /app/.data is a volume");
  const inside = JSON.parse(
    podman([
      "run",
      "--rm",
      "--network=host",
      image,
      "node",
      "-e",
      'const fs = require("fs"); console.log(JSON.stringify({ packages: fs.readdirSync("node_modules").length, dev: ["vite", "@sveltia", "@playwright", "vitest", "eslint"].filter((p) => fs.existsSync("node_modules/" + p)) }))',
    ]),
  );
  check(
    inside.dev.length === 0,
    `the final stage holds production dependencies only (${inside.packages} entries in node_modules; dev ones present: ${inside.dev.join(", ") || "none"})`,
  );

  const port = await freePort();
  say(`running it on 127.0.0.1:${port} with --init`);
  podman([
    "run",
    "--detach",
    "--init",
    "--network=host",
    "--name",
    container,
    "--env",
    `PORT=${port}`,
    "--env",
    "HOST=127.0.0.1",
    "--env",
    `SITE_URL=http://127.0.0.1:${port}`,
    "--env",
    "CONTENT_REPOSITORY=founders-circle/site",
    image,
  ]);
  const base_url = `http://127.0.0.1:${port}`;
  await waitFor("/healthz", async () => (await fetch(`${base_url}/healthz`)).status === 200);
  const health = await fetch(`${base_url}/healthz`);
  check(health.status === 200 && (await health.json()).status === "ok", "GET /healthz answers 200 {status: ok}");
  check(
    spawnSync("podman", ["--runtime", "runc", "healthcheck", "run", container], { env }).status === 0,
    "the image's HEALTHCHECK passes (podman healthcheck run)",
  );

  for (const page of PAGES) {
    const res = await fetch(`${base_url}${page}`);
    const body = await res.text();
    const whole = (res.headers.get("content-type") ?? "").startsWith("text/html") ? body.trimEnd().endsWith("</html>") : body.length > 0;
    check(res.status === 200 && whole, `GET ${page}: ${res.status}, ${body.length} bytes`);
  }
  const { events } = /** @type {{ events: Array<{ id: string }> }} */ (await (await fetch(`${base_url}/api/calendar/events`)).json());
  check(events.length > 0, `GET /api/calendar/events: ${events.length} events`);
  const event = events[0];
  if (event) {
    const page = await fetch(`${base_url}/events/${encodeURIComponent(event.id)}`);
    check(page.status === 200, `GET /events/${event.id}: ${page.status}`);
    const share = await fetch(`${base_url}/events/${encodeURIComponent(event.id)}/og.png`);
    const png = Buffer.from(await share.arrayBuffer());
    check(
      share.status === 200 && png.subarray(1, 4).toString() === "PNG",
      `GET /events/${event.id}/og.png: ${share.status}, a ${png.length}-byte PNG (fonts and resvg in the image)`,
    );
  }
  const missing = await fetch(`${base_url}/no-such-page`);
  check(missing.status === 404, `GET /no-such-page: ${missing.status}`);
  const entry = /import CMS from "([^"]+)"/.exec(await (await fetch(`${base_url}/admin`)).text())?.[1] ?? "";
  check((await fetch(`${base_url}${entry}`)).status === 200, `the content editor's script ${entry} is in the image`);

  const uid = podman(["exec", container, "node", "-e", "process.stdout.write(String(process.getuid()))"]);
  check(uid !== "0" && uid !== "", `the server runs as uid ${uid}, not root`);
  const pid1 = podman(["exec", container, "cat", "/proc/1/cmdline"]).split("\0")[0] ?? "";
  check(!pid1.includes("node"), `PID 1 is the init (${pid1}), node is its child`);

  say("SIGTERM");
  const stopStart = Date.now();
  podman(["kill", "--signal", "TERM", container]);
  const code = podman(["wait", container]);
  const stopMs = Date.now() - stopStart;
  check(
    code === "0" && stopMs < STOP_LIMIT_MS,
    `SIGTERM stops it gracefully: exit ${code} after ${(stopMs / 1000).toFixed(1)} s (limit 10 s)`,
  );
  const logs = podman(["logs", container]);
  check(!/"level":(50|60)/.test(logs), "no error in its logs");
}

let crashed;
try {
  await main();
} catch (error) {
  crashed = error;
} finally {
  say("removing the container, its volume and the image");
  spawnSync("podman", ["--runtime", "runc", "rm", "--force", "--volumes", container], { env, stdio: "ignore" });
  spawnSync("podman", ["--runtime", "runc", "rmi", "--force", image], { env, stdio: "ignore" });
  // The stand-in keeps its own name only: nothing else on this machine takes it for the official image.
  if (lent) spawnSync("podman", ["--runtime", "runc", "untag", lent, lent], { env, stdio: "ignore" });
  rmSync(work, { recursive: true, force: true });
}
if (crashed) {
  console.error(crashed instanceof Error ? crashed.message : crashed);
  process.exitCode = 1;
} else if (failures.length > 0) {
  console.error(`container check FAILED (${failures.length}):\n  ${failures.join("\n  ")}`);
  process.exitCode = 1;
} else {
  console.log(`container check passed in ${seconds()}`);
}
