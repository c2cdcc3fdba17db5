import { request } from "node:http";

export type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/**
 * One HTTP request with the target sent exactly as given (fetch would normalise `..`, `%2e`, and
 * refuse some malformed targets), on a fresh connection.
 */
export function rawRequest(baseUrl: string, target: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: target, method: options.method ?? "GET", headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
