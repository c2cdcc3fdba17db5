// @ts-check
// What the bench starts (servers, Chromium) is killed when the bench exits, however it exits: a normal end, a failure (process.exit) or
// Ctrl-C, so no process is left listening.
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";

/** @type {Set<() => void>} */
const kills = new Set();
process.on("exit", () => kills.forEach((kill) => kill()));
process.on("SIGINT", () => process.exit(130));
process.on("SIGTERM", () => process.exit(143));

/** Runs `kill` (synchronous) when the bench exits, unless the returned function is called first. @param {() => void} kill */
export function killOnExit(kill) {
  kills.add(kill);
  return () => void kills.delete(kill);
}

/**
 * A child process's stop: SIGTERM, then SIGKILL if it has not exited after `graceMs`; SIGKILL if the bench exits first.
 * @param {import("node:child_process").ChildProcess} child
 * @param {number} graceMs
 * @returns {{ exited: Promise<unknown>, stop: () => Promise<void> }}
 */
export function stopChildOnCleanup(child, graceMs) {
  const exited = once(child, "exit");
  const running = () => child.exitCode === null && child.signalCode === null;
  const forget = killOnExit(() => running() && child.kill("SIGKILL"));
  const stop = async () => {
    if (running()) {
      child.kill("SIGTERM");
      if (!(await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]))) {
        child.kill("SIGKILL");
        await exited;
      }
    }
    forget();
  };
  return { exited, stop };
}
