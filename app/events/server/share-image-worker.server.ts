// The share cards' drawing process. In the built server this module is a small chunk of its own
// (the server only imports it dynamically, for its path), and the drawing process is started from
// that very file. The drawing code (satori, resvg, fonts, emoji) is a further chunk that only the
// drawing process loads, so neither drawing a card nor loading the code that draws it holds the
// event loop, and the fonts never grow the server's memory. It is a process rather than a thread
// so that all it held goes back to the system when it ends (a thread's leaves tens of MB in the
// allocators: share-image-drawer.server.ts). Nothing here may import the app's modules (only
// types): the process would load the whole server bundle with them.
import process from "node:process";
import type { ShareCard } from "./share-card.server";
import type { DrawnCard } from "./share-image.server";

/** The argument the server starts the drawing process with, so the module knows its role. */
export const WORKER_FLAG = "--founders-circle-share-image-worker";

export type DrawRequest = { id: number; card: ShareCard };
export type DrawResponse = { id: number; png: Uint8Array; missing: string[]; ms: number; pid: number } | { id: number; error: string };

/** This module's own file: the drawing process runs it. */
export const workerModuleUrl = import.meta.url;

/** True where the module is built JavaScript Node can run (not Vite's or Vitest's TypeScript). */
export const canRunAsWorker = /\.m?js$/.test(new URL(import.meta.url).pathname);

/** Draws in this process (development and unit tests, where there is no built worker file). */
export async function drawShareCard(card: ShareCard): Promise<DrawnCard> {
  return (await import("./share-image.server")).drawShareCard(card);
}

const send = process.send?.bind(process);
if (send && process.argv.includes(WORKER_FLAG)) {
  // Loaded as the process starts, not when the first card is asked for.
  void import("./share-image.server");
  // The server is gone (or ended this process): nothing is left to draw for.
  process.on("disconnect", () => process.exit(0));
  process.on("message", (request: DrawRequest) => {
    const started = performance.now();
    drawShareCard(request.card).then(
      (drawn) => {
        const png = new Uint8Array(drawn.png.buffer, drawn.png.byteOffset, drawn.png.byteLength);
        send({ id: request.id, png, missing: drawn.missing, ms: performance.now() - started, pid: process.pid } satisfies DrawResponse);
      },
      (error: unknown) => send({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies DrawResponse),
    );
  });
}
