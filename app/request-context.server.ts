// What the HTTP process hands each React Router request (through getLoadContext): the request id
// and a logger bound to that id.
import { createContext } from "react-router";
import type { Logger } from "~/logger.server";

export type RequestContext = {
  requestId: string;
  log: Logger;
};

export const requestContext = createContext<RequestContext>();
