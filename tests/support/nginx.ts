// A real nginx in front of a running site, on a free loopback port with its own prefix and
// configuration (nothing of the machine's nginx is read or touched), stopped by its own pid. Debian's
// `nginx-light` has it (.ci/run installs it); NGINX_PATH points elsewhere.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./http";
import { codeBlockUnder, readDocument } from "./markdown";
import { waitUntil } from "./wait";

/** nginx's path: NGINX_PATH's, else the first on PATH or in the sbin folders Debian installs it in; none when absent. */
export function nginxBinary(): string | undefined {
  const override = process.env.NGINX_PATH;
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin"];
  for (const candidate of override ? [override] : dirs.map((dir) => path.join(dir, "nginx"))) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

const DEPLOYING = "docs/deploying.md";

/**
 * The reverse proxy's part of nginx's configuration as docs/deploying.md gives it ("Behind a reverse proxy"): its
 * `location` block, whole (the client's address appended to X-Forwarded-For; Host, X-Forwarded-Host and -Proto set
 * by nginx itself, so whatever a client wrote in them is replaced), its proxy_pass aimed at `upstream`.
 */
export function documentedProxyBlock(upstream: string): string {
  const block = codeBlockUnder(readDocument(DEPLOYING), "behind-a-reverse-proxy", "nginx");
  if (!block) throw new Error(`${DEPLOYING} has no nginx block under "Behind a reverse proxy"`);
  const aimed = block.replace(/(\bproxy_pass\s+)http:\/\/127\.0\.0\.1:3000;/, `$1${upstream};`);
  if (aimed === block) throw new Error(`${DEPLOYING}'s nginx block no longer proxies to http://127.0.0.1:3000;: aim it here anew`);
  return aimed;
}
export type RunningNginx = {
  url: string;
  pid: number;
  /** What nginx wrote to its error log and stderr so far. */
  errors: () => string;
  stop: () => Promise<void>;
};

/** nginx on 127.0.0.1 proxying every request to `upstream` (http://host:port) as docs/deploying.md says. */
export async function startNginx(binary: string, upstream: string): Promise<RunningNginx> {
  const prefix = mkdtempSync(path.join(tmpdir(), "fc-nginx-"));
  const port = await freePort();
  const errorLog = path.join(prefix, "error.log");
  writeFileSync(
    path.join(prefix, "nginx.conf"),
    `daemon off;
worker_processes 1;
pid ${path.join(prefix, "nginx.pid")};
error_log ${errorLog} warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${path.join(prefix, "body")};
  proxy_temp_path ${path.join(prefix, "proxy")};
  fastcgi_temp_path ${path.join(prefix, "fastcgi")};
  uwsgi_temp_path ${path.join(prefix, "uwsgi")};
  scgi_temp_path ${path.join(prefix, "scgi")};
  server {
    listen 127.0.0.1:${port};
    ${documentedProxyBlock(upstream).split("\n").join("\n    ")}
  }
}
`,
  );
  const child: ChildProcess = spawn(binary, ["-p", prefix, "-c", path.join(prefix, "nginx.conf"), "-e", errorLog], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, "exit");
  const url = `http://127.0.0.1:${port}`;
  // Up once it answers (any answer: the site's own); a start that fails says why.
  await waitUntil(
    () => {
      if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
      return new Promise<boolean>((resolve) => {
        const req = request(`${url}/healthz`, { agent: false }, (res) => {
          res.resume();
          resolve(true);
        });
        req.on("error", () => resolve(false));
        req.end();
      });
    },
    { timeoutMs: 15_000, message: () => `nginx did not answer within 15 s: ${stderr}` },
  );
  return {
    url,
    pid: child.pid!,
    errors: () => (existsSync(errorLog) ? readFileSync(errorLog, "utf8") : "") + stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // Its own master process, by the pid we started; it ends its worker.
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
