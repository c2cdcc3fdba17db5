// Build step: writes file.br (brotli, best) and file.gz (gzip, best) next to every compressible file
// of the client build, so the server sends them without compressing on each request.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin, ResolvedConfig } from "vite";

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|txt|xml|json|webmanifest|ics|map)$/i;
/** Below this, compression saves less than the headers it costs. */
const MIN_BYTES = 1024;

export type Precompressed = { file: string; bytes: number; br?: number; gz?: number };

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/** Compresses every compressible file of `dir` (recursively) that is worth it; returns what it wrote. */
export function precompressDirectory(dir: string): Precompressed[] {
  const written: Precompressed[] = [];
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
    const source = readFileSync(file);
    const result: Precompressed = { file, bytes: source.length };
    const br = brotliCompressSync(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    });
    const gz = gzipSync(source, { level: constants.Z_BEST_COMPRESSION });
    // A variant no smaller than the original would only cost bytes.
    if (br.length < source.length) {
      writeFileSync(`${file}.br`, br);
      result.br = br.length;
    }
    if (gz.length < source.length) {
      writeFileSync(`${file}.gz`, gz);
      result.gz = gz.length;
    }
    written.push(result);
  }
  return written;
}

/**
 * Vite plugin: precompresses the client build once everything is written. React Router builds the
 * client, then the server, and the server build still adds files to the client folder (the route
 * manifest, moved assets), so this runs when the server build closes.
 */
export function precompress(clientDir = "build/client"): Plugin {
  let config: ResolvedConfig;
  return {
    name: "precompress",
    apply: "build",
    enforce: "post",
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      if (!config.build.ssr) return;
      const dir = path.resolve(config.root, clientDir);
      const written = precompressDirectory(dir);
      config.logger.info(`precompressed ${written.length} files in ${clientDir} (.br, .gz)`);
    },
  };
}
