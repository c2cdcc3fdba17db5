import { spawn } from "node:child_process";
import { once } from "node:events";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The production server both engines visit. */
    baseURL: string;
  }
}

// As playwright.config.ts's webServer: the given build, 180 s to start (a busy 2-core machine is slow
// to load the server's bundle; tests/support/start-server.ts allows only 15 s, made for many small servers).
const START_MS = 180_000;

/** One production server (server.js, the build already made) on a free loopback port, for every engine. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      // Every request comes from loopback: the rate limits are lifted (tested in tests/integration).
      RATE_LIMIT_PER_MINUTE: "100000",
      PAGE_RATE_LIMIT_PER_MINUTE: "10000000",
      SPECULATIVE_RATE_LIMIT_PER_MINUTE: "10000000",
      // The bundled sample calendar, whatever the machine's environment says.
      GOOGLE_CALENDAR_ID: "",
      GOOGLE_API_KEY: "",
      CALENDAR_ICS_URL: "",
      GOOGLE_CALENDAR_API_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await once(child, "exit");
  };
  try {
    let timer: NodeJS.Timeout | undefined;
    const port = await new Promise<string>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`server.js did not start within ${START_MS / 1000} s`)), START_MS);
      child.stdout.on("data", () => {
        const match = /listening on http:\/\/localhost:(\d+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once("exit", (code) => reject(new Error(`server.js exited with ${code}`)));
    }).finally(() => clearTimeout(timer));
    project.provide("baseURL", `http://127.0.0.1:${port}`);
  } catch (error) {
    await stop();
    throw new Error(`${String(error)} (is there a build? npm run build):\n${output}`);
  }
  return stop;
}
