import { Transform } from "node:stream";
import { DEFERRED_ATTRIBUTE, DEFERRED_CLASSIC_ATTRIBUTE, DEFERRED_CLASSIC_TYPE, DEFERRED_TYPE } from "./deferred-scripts";

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const MODULE_SCRIPT = /<script([^>]*?) type="module"( async="")?([^>]*)>/g;
/**
 * React Router's inline classic scripts, which set up its context and stream the page's data into it: a classic
 * script with no attribute but a nonce. The site's own inline scripts each carry a type (JSON-LD, speculation
 * rules) or, the one that runs at load, RUNS_AT_LOAD_ATTRIBUTE.
 */
const CONTEXT_SCRIPT = /<script((?: nonce="[^"]*")?)>/g;

/**
 * Makes a rendered page's JavaScript wait for the first interaction: no module preloads (they
 * compete with the stylesheet for a slow phone's bandwidth), and React Router's module script and
 * its inline context and data scripts retyped so the browser keeps them inert (no script runs
 * before the first paint for them) until startOnFirstInteraction() revives them.
 */
export function deferModuleScripts(html: string): string {
  return html
    .replace(MODULE_PRELOAD, "")
    .replace(CONTEXT_SCRIPT, (_tag, nonce: string) => `<script${nonce} type="${DEFERRED_CLASSIC_TYPE}" ${DEFERRED_CLASSIC_ATTRIBUTE}="">`)
    .replace(
      MODULE_SCRIPT,
      (_tag, before: string, _async, after: string) => `<script${before} type="${DEFERRED_TYPE}" ${DEFERRED_ATTRIBUTE}=""${after}>`,
    );
}

/** The same over a stream: the document is small, so it is gathered and rewritten whole. */
export function deferModuleScriptsStream(): Transform {
  const chunks: Buffer[] = [];
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      callback();
    },
    flush(callback) {
      callback(null, deferModuleScripts(Buffer.concat(chunks).toString("utf8")));
    },
  });
}
