// The running server's metrics listener (METRICS_PORT=0 in tests: the start-up line names its port)
// and one sample's value in an exposition.
import type { RunningServer } from "./start-server";

/** The metrics URL the server printed at start-up. */
export function metricsUrlOf(server: Pick<RunningServer, "output">): string {
  const match = /Metrics for Prometheus at (http:\/\/\S+\/metrics)/.exec(server.output());
  if (!match) throw new Error(`the server printed no metrics address:\n${server.output()}`);
  return match[1] as string;
}

export async function scrape(server: Pick<RunningServer, "output">): Promise<string> {
  const response = await fetch(metricsUrlOf(server));
  if (response.status !== 200) throw new Error(`metrics answered ${response.status}`);
  return response.text();
}

/** The value of the sample `name` with exactly these labels (in any order), or undefined. */
export function sample(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(",");
  for (const line of exposition.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const got = (match[2] ?? "").match(/[a-zA-Z_]\w*="(?:[^"\\]|\\.)*"/g) ?? [];
    if (got.sort().join(",") === wanted) return Number(match[3]);
  }
  return undefined;
}
