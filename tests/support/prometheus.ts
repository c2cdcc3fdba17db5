// Prometheus's own tools for the metrics tests: promtool (checks rules and expositions) and a real
// Prometheus server on loopback that scrapes a running site. Debian's `prometheus` package has both
// (.ci/run installs it); PROMETHEUS_PATH and PROMTOOL_PATH point elsewhere.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { parse, stringify } from "yaml";
import { freePort } from "./http";
import { codeBlockUnder, readDocument } from "./markdown";
import { waitUntil } from "./wait";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The binary's path: the variable's, else the first on PATH; a clear error when there is none. */
export function binary(name: "prometheus" | "promtool"): string {
  const override = process.env[`${name.toUpperCase()}_PATH`];
  const candidates = override ? [override] : (process.env.PATH ?? "").split(path.delimiter).map((dir) => path.join(dir, name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not this one.
    }
  }
  throw new Error(`${name} not found: install Debian's prometheus package (apt-get install prometheus) or set ${name.toUpperCase()}_PATH`);
}

/** Runs promtool; resolves with its exit code and output, whatever the code. */
export async function promtool(args: string[], stdin?: string): Promise<{ code: number; output: string }> {
  if (stdin === undefined) {
    try {
      const { stdout, stderr } = await run(binary("promtool"), args);
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof failed.code === "number" ? failed.code : 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
    }
  }
  const child = spawn(binary("promtool"), args, { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(stdin);
  const [code] = (await once(child, "exit")) as [number | null];
  return { code: code ?? 1, output };
}

export type RunningPrometheus = {
  url: string;
  /** GET on its HTTP API (`/api/v1/...`), the `data` of a success. */
  api: <T>(pathAndQuery: string) => Promise<T>;
  /** Waits until `check` returns a value (polling the API), or fails after `timeoutMs`. */
  until: <T>(check: () => Promise<T | undefined>, timeoutMs?: number) => Promise<T>;
  output: () => string;
  stop: () => Promise<void>;
};

const OPERATING = "docs/operating.md";

type ScrapeConfig = { job_name: string; static_configs: { targets: string[] }[] };

/** The scrape config docs/operating.md gives (its "Metrics" section), aimed at `target` (host:port) instead of its example host. */
export function documentedScrapeConfig(target: string): ScrapeConfig {
  const block = codeBlockUnder(readDocument(OPERATING), "metrics", "yaml");
  const configs = (parse(block ?? "") as { scrape_configs?: ScrapeConfig[] } | null)?.scrape_configs;
  if (configs?.length !== 1 || configs[0]!.static_configs.length !== 1)
    throw new Error(`${OPERATING}'s "Metrics" section no longer gives one scrape config with one static target: aim it here anew`);
  return { ...configs[0]!, static_configs: [{ targets: [target] }] };
}
/** A Prometheus server on loopback scraping `target` (host:port) every second as docs/operating.md says, with the rule files given. */
export async function startPrometheus(target: string, ruleFiles: string[] = []): Promise<RunningPrometheus> {
  const dir = mkdtempSync(path.join(tmpdir(), "fc-prometheus-"));
  const config = stringify({
    global: { scrape_interval: "1s", evaluation_interval: "1s" },
    rule_files: ruleFiles.map((file) => path.resolve(file)),
    scrape_configs: [documentedScrapeConfig(target)],
  });
  writeFileSync(path.join(dir, "prometheus.yml"), config);
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary("prometheus"),
    [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const url = `http://127.0.0.1:${port}`;

  async function api<T>(pathAndQuery: string): Promise<T> {
    const response = await fetch(`${url}${pathAndQuery}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== "success") throw new Error(`Prometheus ${pathAndQuery}: ${body.error ?? response.status}`);
    return body.data;
  }

  async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
    let last: unknown;
    const value = await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}):\n${out}`);
        try {
          const value = await check();
          return value === undefined ? undefined : { value };
        } catch (error) {
          // Not up yet, or not scraped yet.
          last = error;
          return undefined;
        }
      },
      { timeoutMs, everyMs: 200, message: () => `Prometheus: condition not met within ${timeoutMs} ms (${String(last)})\n${out}` },
    );
    return value.value as T;
  }

  return {
    url,
    api,
    until,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
