// Build step: writes file.br (brotli, best) and file.gz (gzip, best) next to every compressible file
// of the client build, so the server sends them without compressing on each request. Best brotli is
// slow (the editor's 2 MB script alone takes about 6 s), so the files are compressed side by side on
// Node's thread pool, and each result is kept in a cache by the file's bytes: a rebuild (a volunteer's,
// or the tests' edited checkouts, which share node_modules) compresses only what changed.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin, ResolvedConfig } from "vite";
import writeFileAtomic from "write-file-atomic";

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|txt|xml|json|webmanifest|ics|map)$/i;
/** Below this, compression saves less than the headers it costs. */
const MIN_BYTES = 1024;
/** Part of each cached result's key: change it when the settings below change. */
const SETTINGS = "v1 br q11 size-hint, gz 9";

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
  if (existsSync(at("br")) && existsSync(at("gz"))) return { br: readFileSync(at("br")), gz: readFileSync(at("gz")), cached: true };
  const made = await compress(source);
  mkdirSync(cacheDir, { recursive: true });
  // Atomic: a build interrupted, or two at once, leave no half file.
  for (const variant of ["br", "gz"] as const) writeFileAtomic.sync(at(variant), made[variant]);
  return { ...made, cached: false };
}

/** Compresses every compressible file of `dir` (recursively) that is worth it; returns what it wrote. */
export async function precompressDirectory(dir: string, cacheDir?: string): Promise<Precompressed[]> {
  const files = [...filesUnder(dir)].filter((file) => COMPRESSIBLE.test(file) && statSync(file).size >= MIN_BYTES);
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
 * Vite plugin: precompresses the client build once everything is written. React Router builds the
 * client, then the server, and the server build still adds files to the client folder (the route
 * manifest, moved assets), so this runs when the server build closes.
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
      if (!config.build.ssr) return;
      const written = await precompressDirectory(path.resolve(config.root, clientDir), path.resolve(config.root, cacheDir));
      const reused = written.filter((w) => w.cached).length;
      config.logger.info(`precompressed ${written.length} files in ${clientDir} (.br, .gz; ${reused} from ${cacheDir})`);
    },
  };
}
