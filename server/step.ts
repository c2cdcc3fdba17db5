// A step of the front chain (server/site.ts): connect-style, on Node's own request and response.
// helmet and Vite's dev middleware are such steps too; React Router's listener ends the chain.
import type { IncomingMessage, ServerResponse } from "node:http";

export type Next = (error?: unknown) => void;
export type Step = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/** Runs the steps in order; each calls `next()` to go on or answers itself. An error or the end goes to `done`. */
export function inOrder(steps: readonly Step[], done: (req: IncomingMessage, res: ServerResponse, error?: unknown) => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    let index = 0;
    const next: Next = (error) => {
      const step = steps[index];
      index += 1;
      if (error !== undefined || step === undefined) return done(req, res, error);
      try {
        step(req, res, next);
      } catch (thrown) {
        done(req, res, thrown);
      }
    };
    next();
  };
}
