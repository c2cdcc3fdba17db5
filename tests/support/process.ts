import { readdirSync, readFileSync } from "node:fs";

/** Resident memory of a process in bytes (VmRSS in /proc/<pid>/status; Linux). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

export const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The processes whose parent is `pid`, with their command lines (Linux: /proc/<pid>/stat and cmdline). */
export function childProcesses(pid: number): { pid: number; argv: string[] }[] {
  const children: { pid: number; argv: string[] }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name, in parentheses, may hold spaces: the fields after its last ")" are fixed.
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent !== pid) continue;
      children.push({ pid: Number(entry), argv: readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean) });
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/** A process's environment as it was started with (/proc/<pid>/environ), as NAME=value lines. */
export function environmentOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
}
