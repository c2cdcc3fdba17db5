// Raw HTTP/1.1 bytes over node:net, for requests fetch() refuses to send (bad request lines, odd bytes,
// forbidden methods and headers). The request should carry "Connection: close": the answer is read
// until the server closes the connection.
import { connect } from "node:net";
import { performance } from "node:perf_hooks";

export type RawAnswer = {
  /** The final (non-1xx) status, if the server answered at all. */
  status?: number;
  /** Every status line's code, interim 1xx ones included. */
  statuses: number[];
  /** The final answer's head (status line and headers) and body, undecoded. */
  head: string;
  body: Buffer;
  /** From the first byte written to the connection's close. */
  ms: number;
  /** The server neither answered nor closed within the timeout (we closed it). */
  timedOut: boolean;
  /** A socket error (e.g. ECONNRESET) ended the exchange. */
  error?: string;
};

export function rawRequest(port: number, request: Buffer, timeoutMs = 5_000, host = "127.0.0.1"): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let timedOut = false;
    let error: string | undefined;
    const started = performance.now();
    // Written, not ended: Node's server drops a request whose client half-closes before the answer.
    const socket = connect({ port, host }, () => socket.write(request));
    socket.setTimeout(timeoutMs, () => {
      timedOut = true;
      socket.destroy();
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on("close", () => resolve({ ...parse(Buffer.concat(chunks)), ms: performance.now() - started, timedOut, error }));
  });
}

/** Splits interim (1xx) answers from the final one. */
function parse(data: Buffer): Pick<RawAnswer, "status" | "statuses" | "head" | "body"> {
  const statuses: number[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf("\r\n\r\n");
    const head = (end < 0 ? rest : rest.subarray(0, end)).toString("latin1");
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(head);
    if (!match) return { statuses, head, body: Buffer.alloc(0) };
    const status = Number(match[1]);
    statuses.push(status);
    const body = end < 0 ? Buffer.alloc(0) : rest.subarray(end + 4);
    if (status >= 200 || end < 0) return { status: status >= 200 ? status : undefined, statuses, head, body };
    rest = body;
  }
}
