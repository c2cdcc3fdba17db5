// React Router's default Node entry (streaming, isbot, streamTimeout), plus: the whole document
// gathered before it is sent (the server stores it and allows its inline scripts by their hashes in
// the CSP, server/answer.ts), scripts held until the first interaction, and render errors logged.
import { PassThrough, pipeline } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { deferModuleScriptsStream } from "./lib/deferred-scripts.server";
import { requestContext } from "./request-context.server";

export const streamTimeout = 5_000;

/** The server's answer store sets each kept page's policy (server/cache-policy.ts); this is for the rest. */
const PAGE_CACHE_CONTROL = "no-cache";

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { log } = loadContext.get(requestContext);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  if (!responseHeaders.has("Cache-Control")) {
    responseHeaders.set("Cache-Control", responseStatusCode >= 500 ? "no-store" : PAGE_CACHE_CONTROL);
  }

  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");

    // Crawlers (and SPA mode) get the whole document at once.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Abort after streamTimeout, leaving time to flush the rejected boundaries.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      [readyOption]() {
        shellRendered = true;
        const body = new PassThrough({
          final(callback) {
            // Clear the timeout so its closure is not retained.
            clearTimeout(timeoutId);
            timeoutId = undefined;
            callback();
          },
        });
        // The page's scripts wait for the visitor's first interaction (docs/decisions/deferred-hydration.md).
        const deferred = deferModuleScriptsStream();
        pipeline(body, deferred, () => {});
        const stream = createReadableStreamFromReadable(deferred);
        pipe(body);
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors in the shell reject above and are logged by handleError; these come later.
        if (shellRendered) log.error({ err: error }, "error while streaming a page");
      },
    });
  });
}

/** Loader, action and render errors, with the request id; aborted requests are not errors. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  context.get(requestContext).log.error({ err: error }, "error while handling a request");
};
