import { readFileSync } from "node:fs";

/** Resident memory of a process in bytes (VmRSS in /proc/<pid>/status; Linux). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

export const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
