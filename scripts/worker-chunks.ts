// A worker process must load only its own code. Rollup would otherwise let a worker's module import
// what it shares with the server from the server's own chunk, and a worker loading that chunk starts
// a second server's worth of state. So each worker entry and every module it imports (transitively,
// statically) go into one chunk of their own, which the server's chunks import from too.
import path from "node:path";
import type { GetManualChunk } from "rollup";

/** `manualChunks` for the SSR build: chunk name → the worker's entry module (a path from the project root). */
export function workerChunks(workers: Record<string, string>): GetManualChunk {
  const entries = Object.entries(workers).map(([name, file]) => [name, path.resolve(file)] as const);
  const owner = new Map<string, string>();
  let mapped = false;
  return (id, { getModuleInfo }) => {
    if (!mapped) {
      mapped = true;
      for (const [name, entry] of entries) {
        const stack = [entry];
        while (stack.length > 0) {
          const current = stack.pop() as string;
          const info = getModuleInfo(current);
          if (!info || info.isExternal || owner.has(current)) continue;
          owner.set(current, name);
          stack.push(...info.importedIds);
        }
      }
    }
    return owner.get(id);
  };
}
