// The share cards' drawing thread. In the built server this module is a small chunk of its own
// (the main thread only imports it dynamically, for its URL), and the worker is started from that
// very file. The drawing code (satori, resvg, fonts, emoji) is a further chunk that only the
// worker loads, so neither drawing a card nor loading the code that draws it holds the event loop,
// and the fonts never grow the main heap. Nothing here may import the app's modules (only types):
// the worker would load the whole server bundle with them. server/app.ts refuses to run in a
// worker, so a mistake there fails loudly.
import { isMainThread, parentPort, threadId, workerData } from "node:worker_threads";
import type { ShareCard } from "./share-card.server";
import type { DrawnCard } from "./share-image.server";

/** Set in workerData by the main thread, so the module knows it was started as the drawing worker. */
export const WORKER_FLAG = "founders-circle-share-image-worker";

export type DrawRequest = { id: number; card: ShareCard };
export type DrawResponse = { id: number; png: Uint8Array; missing: string[]; ms: number; threadId: number } | { id: number; error: string };

/** This module's own file: the worker runs it. */
export const workerModuleUrl = import.meta.url;

/** True where the module is built JavaScript Node can run as a worker (not Vite's or Vitest's TypeScript). */
export const canRunAsWorker = /\.m?js$/.test(new URL(import.meta.url).pathname);

/** Draws on this thread (development and unit tests, where there is no built worker file). */
export async function drawShareCard(card: ShareCard): Promise<DrawnCard> {
  return (await import("./share-image.server")).drawShareCard(card);
}

const port = parentPort;
if (!isMainThread && port && (workerData as Record<string, unknown> | null)?.[WORKER_FLAG] === true) {
  // Loaded as the worker starts, not when the first card is asked for.
  void import("./share-image.server");
  port.on("message", (request: DrawRequest) => {
    const started = performance.now();
    drawShareCard(request.card).then(
      (drawn) => {
        // A copy in memory of its own, which then moves to the main thread instead of being copied again.
        const png = new Uint8Array(drawn.png);
        const response: DrawResponse = { id: request.id, png, missing: drawn.missing, ms: performance.now() - started, threadId };
        port.postMessage(response, [png.buffer]);
      },
      (error: unknown) => {
        const response: DrawResponse = { id: request.id, error: error instanceof Error ? error.message : String(error) };
        port.postMessage(response);
      },
    );
  });
}
