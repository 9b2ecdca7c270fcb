import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { lingeringClose } from './lingering-close.js';

/** Go's net/http answer to a request it cannot parse: plain text, and the connection closed. */
function goAnswer(status: string): string {
  return `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`;
}

const badRequest = goAnswer('400 Bad Request');
const headerTooLarge = goAnswer('431 Request Header Fields Too Large');
/** Node's own answer when a request header does not arrive within the header timeout (kept as Node sends it). */
const requestTimeout = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/** Connections whose unparseable request is being answered: Node reports every later chunk of them again. */
const answering = new WeakSet<Socket>();

/**
 * The http server's `clientError` listener: a request that cannot be parsed (a malformed request line or header, an
 * oversized header) is answered as kube-apiserver answers it, after the answers to the requests before it on the
 * connection, and the connection is closed so that the answer reaches a client that is still sending. Node's default
 * answers without a body, destroys the connection at once, and answers nothing when the answer to an earlier request
 * on it is still being sent (the client then sees "socket hang up"). Errors of the connection itself (a reset) are not
 * answered, as in Go.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (answering.has(socket) || socket.destroyed) return;
  const answer = answerFor(err.code);
  if (!answer || !socket.writable) {
    socket.destroy();
    return;
  }
  answering.add(socket);
  const send = () => {
    if (!socket.writable) return void socket.destroy();
    socket.write(answer);
    lingeringClose(socket);
  };
  const inFlight = answerInFlight(socket);
  if (!inFlight) send();
  else if (inFlight.req.complete) inFlight.once('finish', send); // the error is in a request sent behind it
  else if (!inFlight.headersSent) send(); // the request being answered is itself broken (its body) or too slow
  else socket.destroy();
}

/** Answers a request kapi will not parse as Go answers one it cannot, and closes the connection once it is read. */
export function answerBadRequest(socket: Socket): void {
  socket.write(badRequest);
  lingeringClose(socket);
}

function answerFor(code: string | undefined): string | undefined {
  if (code === 'HPE_HEADER_OVERFLOW') return headerTooLarge;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return requestTimeout;
  if (code?.startsWith('HPE_')) return badRequest;
  return undefined;
}

/** The answer to an earlier request on this connection that is not sent yet, if any. */
export function answerInFlight(socket: Socket): ServerResponse | undefined {
  // Node keeps it on the socket as `_httpMessage` (its own clientError default checks it too).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return inFlight && !inFlight.writableFinished ? inFlight : undefined;
}
