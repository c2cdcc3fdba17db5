// What the HTTP process hands each React Router request (through getLoadContext): the CSP nonce
// for inline scripts, the request id, and a logger bound to that id.
import { createContext } from "react-router";
import type { Logger } from "~/logger.server";

export type RequestContext = {
  /** Fresh per response; the Content-Security-Policy header allows inline scripts carrying it. */
  nonce: string;
  requestId: string;
  log: Logger;
};

export const requestContext = createContext<RequestContext>();
