import { spawn } from "node:child_process";
import { once } from "node:events";
import type { Readable } from "node:stream";

export type Display = { name: string; stop: () => Promise<void> };

/**
 * A virtual X screen of exactly `width`×`height`, for an engine that needs a display (WebKitGTK's
 * MiniBrowser has no headless mode). Xvfb picks a free display number itself (-displayfd), so runs
 * side by side never collide; nothing listens on TCP.
 */
export async function startXvfb(width: number, height: number): Promise<Display> {
  const child = spawn("Xvfb", ["-displayfd", "3", "-nolisten", "tcp", "-noreset", "-screen", "0", `${width}x${height}x24`], {
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await once(child, "exit");
  };
  const number = await new Promise<string>((resolve, reject) => {
    let text = "";
    (child.stdio[3] as Readable).on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("\n")) resolve(text.trim());
    });
    child.once("error", (error) => reject(new Error(`Xvfb did not start (apt-get install xvfb): ${error.message}`)));
    child.once("exit", (code) => reject(new Error(`Xvfb exited with ${code}: ${stderr}`)));
  });
  return { name: `:${number}`, stop };
}
