// React Router's Node entry, made for answers that are stored whole (server/answer-store.ts): the
// document is gathered completely before it is sent (the store allows its inline scripts by their
// hashes in the CSP), its status says whether the render failed, the scripts wait for the first
// interaction, and render errors are logged. Caching headers are the store's (server/cache-policy.ts).
import { PassThrough, pipeline } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { deferModuleScriptsStream } from "./lib/deferred-scripts.server";
import { requestContext } from "./request-context.server";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { log } = loadContext.get(requestContext);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");

  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let failed = false;
    // Abort after streamTimeout, leaving time to flush the rejected boundaries.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      // Every render is gathered whole: whether it failed is known before its status is sent.
      onAllReady() {
        clearTimeout(timeoutId);
        timeoutId = undefined;
        const body = new PassThrough();
        // The page's scripts wait for the visitor's first interaction (docs/decisions/deferred-hydration.md).
        const deferred = deferModuleScriptsStream();
        // A failure on the way destroys the stream, so the store never keeps a cut document as whole.
        pipeline(body, deferred, (error) => {
          if (error) log.error({ err: error }, "error while writing a page");
        });
        pipe(body);
        const status = failed ? 500 : responseStatusCode;
        resolve(new Response(createReadableStreamFromReadable(deferred), { headers: responseHeaders, status }));
      },
      onShellError(error: unknown) {
        clearTimeout(timeoutId);
        reject(error);
      },
      onError(error: unknown) {
        failed = true;
        log.error({ err: error }, "error while rendering a page");
      },
    });
  });
}

/** Loader, action and render errors, with the request id; aborted requests are not errors. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  context.get(requestContext).log.error({ err: error }, "error while handling a request");
};
