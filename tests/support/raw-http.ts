import { request } from "node:http";

export type RawAnswer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as UTF-8 text, and as it travelled (still encoded, if it was). */
  body: string;
  bytes: Buffer;
};

/**
 * One HTTP request with the target sent exactly as given (fetch would normalise `..`, `%2e`, and
 * refuse some malformed targets), on a fresh connection.
 */
export function rawRequest(
  baseUrl: string,
  target: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path: target, method: options.method ?? "GET", headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString("utf8"), bytes });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}
