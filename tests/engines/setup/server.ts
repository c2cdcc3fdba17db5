import { spawn } from "node:child_process";
import { once } from "node:events";
import type { TestProject } from "vitest/node";
import { suiteClock } from "../../support/clock";
import { LIFTED_RATE_LIMITS, NO_SOURCE } from "../../support/environments";

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
      // At the run's moment, as every test server (tests/support/clock.ts).
      ...suiteClock().env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      // The limits are tested in tests/integration.
      ...LIFTED_RATE_LIMITS,
      ...NO_SOURCE,
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
