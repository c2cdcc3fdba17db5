// Build step: writes file.br (brotli, best) and file.gz (gzip, best) next to every compressible file
// of the client build, so the server sends them without compressing on each request. Best brotli is
// slow (the editor's 2 MB script alone takes about 6 s), so the files are compressed side by side on
// Node's thread pool, and each result is kept in a cache by the file's bytes: a rebuild (a volunteer's,
// or the tests' edited checkouts, which share node_modules) compresses only what changed. A result no build
// has used for a week is deleted when a build ends, so the cache holds what recent builds made, not every edit's.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin, ResolvedConfig } from "vite";
import writeFileAtomic from "write-file-atomic";
import { buildHandOff } from "./build-handoff";

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|txt|xml|json|webmanifest|ics|map)$/i;
/** Below this, compression saves less than the headers it costs. */
const MIN_BYTES = 1024;
/** Part of each cached result's key: change it when the settings below change. */
const SETTINGS = "v1 br q11 size-hint, gz 9";
/** A cached result unused this long is pruned: a week off costs one slow build, a busy week's edits do not pile up. */
export const UNUSED_FOR_MS = 7 * 24 * 3_600_000;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Precompressed = { file: string; bytes: number; br?: number; gz?: number; cached: boolean };

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

type Variants = { br: Buffer; gz: Buffer };

function compress(source: Buffer): Promise<Variants> {
  return Promise.all([
    brotliAsync(source, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
    }),
    gzipAsync(source, { level: constants.Z_BEST_COMPRESSION }),
  ]).then(([br, gz]) => ({ br, gz }));
}

/** Both variants of `source`, from `cacheDir` when it has them, else made (and kept there). */
async function variantsOf(source: Buffer, cacheDir: string | undefined): Promise<Variants & { cached: boolean }> {
  if (!cacheDir) return { ...(await compress(source)), cached: false };
  const key = createHash("sha256").update(SETTINGS).update(source).digest("hex");
  const at = (variant: keyof Variants) => path.join(cacheDir, `${key}.${variant}`);
  try {
    const found = { br: readFileSync(at("br")), gz: readFileSync(at("gz")) };
    // Used now: pruneCache keeps it.
    const now = new Date();
    for (const variant of ["br", "gz"] as const) utimesSync(at(variant), now, now);
    return { ...found, cached: true };
  } catch (error) {
    // Not made yet, or pruned by another build meanwhile: made again below.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const made = await compress(source);
  mkdirSync(cacheDir, { recursive: true });
  // Atomic: a build interrupted, or two at once, leave no half file.
  for (const variant of ["br", "gz"] as const) writeFileAtomic.sync(at(variant), made[variant]);
  return { ...made, cached: false };
}

/** The files of `dir` (recursively) worth compressing. */
const compressibleFiles = (dir: string) =>
  [...filesUnder(dir)].filter((file) => COMPRESSIBLE.test(file) && statSync(file).size >= MIN_BYTES);

/**
 * Fills `cacheDir` with the variants of the compressible files `dir` holds now, writing nothing beside them, so a
 * later precompressDirectory takes them from there. Resolves to how many it compressed; never rejects (that later
 * pass compresses whatever this could not, and says why if it fails too).
 */
export async function warmCache(dir: string, cacheDir: string): Promise<number> {
  try {
    const results = await Promise.all(compressibleFiles(dir).map((file) => variantsOf(readFileSync(file), cacheDir)));
    return results.filter((result) => !result.cached).length;
  } catch {
    return 0;
  }
}

/** Compresses every compressible file of `dir` (recursively) that is worth it; returns what it wrote. */
export async function precompressDirectory(dir: string, cacheDir?: string): Promise<Precompressed[]> {
  const files = compressibleFiles(dir);
  return Promise.all(
    files.map(async (file) => {
      const source = readFileSync(file);
      const { br, gz, cached } = await variantsOf(source, cacheDir);
      const result: Precompressed = { file, bytes: source.length, cached };
      // A variant no smaller than the original would only cost bytes.
      if (br.length < source.length) {
        writeFileSync(`${file}.br`, br);
        result.br = br.length;
      }
      if (gz.length < source.length) {
        writeFileSync(`${file}.gz`, gz);
        result.gz = gz.length;
      }
      return result;
    }),
  );
}

/**
 * Deletes the files of `cacheDir` no build has made or used for `unusedForMs` (their modification time, which a use
 * renews); returns how many. A missing cache is an empty one.
 */
export function pruneCache(cacheDir: string, unusedForMs = UNUSED_FOR_MS, now = Date.now()): number {
  let pruned = 0;
  let names: string[];
  try {
    names = readdirSync(cacheDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  for (const name of names) {
    const file = path.join(cacheDir, name);
    // No stat, or force: another build may have pruned it first.
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat || now - stat.mtimeMs <= unusedForMs) continue;
    rmSync(file, { force: true });
    pruned += 1;
  }
  return pruned;
}

/** The client build's warm-up, handed to the server build's pass. */
const warming = buildHandOff<Promise<number>>("precompress.warming");

/**
 * Vite plugin: precompresses the client build once everything is written. React Router builds the
 * client, then the server, and the server build still adds files to the client folder (the route
 * manifest, moved assets), so the files are written when the server build closes. The client build's
 * files are compressed into the cache as soon as that build closes, on the thread pool while the server
 * build keeps the main thread busy (a cold build: about 3 s sooner); the last pass takes them from there.
 */
export function precompress(clientDir = "build/client", cacheDir = "node_modules/.cache/precompress"): Plugin {
  let config: ResolvedConfig;
  return {
    name: "precompress",
    apply: "build",
    enforce: "post",
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const client = path.resolve(config.root, clientDir);
      const cache = path.resolve(config.root, cacheDir);
      if (!config.build.ssr) {
        warming.set(warmCache(client, cache));
        return;
      }
      const warmed = (await warming.take()) ?? 0;
      const written = await precompressDirectory(client, cache);
      const reused = written.filter((w) => w.cached).length;
      config.logger.info(
        `precompressed ${written.length} files in ${clientDir} (.br, .gz; ${reused} from ${cacheDir}, ${warmed} of them made while the server was built)`,
      );
      // Housekeeping: a cache that cannot be pruned fails no build.
      try {
        const pruned = pruneCache(cache);
        if (pruned > 0) config.logger.info(`pruned ${pruned} files of ${cacheDir} no build had used for a week`);
      } catch (error) {
        config.logger.warn(`${cacheDir} not pruned: ${String(error)}`);
      }
    },
  };
}
