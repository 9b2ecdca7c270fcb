import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { answerBadRequest, answerInFlight } from './client-error-answer.js';
import { hasBody } from './has-body.js';
import { lingeringClose } from './lingering-close.js';

/** The connection of an HTTP/1.1 request that asks to switch protocols, and the bytes that came after its headers. */
export interface UpgradeConnection {
  socket: Duplex;
  head: Buffer;
}

const connections = new WeakMap<IncomingMessage, UpgradeConnection>();

/**
 * Serves HTTP/1.1 requests that ask to switch protocols (`Connection: Upgrade`, as `kubectl exec` or a websocket
 * client sends them) with the same handler as every request, as Go's server does: they are authenticated, authorized
 * and answered like any other, over a response on their connection. A handler that switches (the aggregation proxy,
 * for a backend that answers 101) takes the connection with `upgradeConnectionOf`; otherwise the connection is closed
 * once the answer is sent. Without this, Node would answer them as plain requests and keep parsing what follows as HTTP.
 */
export function serveUpgradeRequests(
  server: { on(event: 'upgrade', listener: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): unknown },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  server.on('upgrade', (req, socket, head) => {
    // Node leaves a switched connection without an error listener: a client's reset would otherwise throw.
    socket.on('error', () => socket.destroy());
    const serve = () => {
      // Node hands what follows the headers over as raw bytes: a body (a cleartext h2c upgrade's) would be lost.
      if (hasBody(req)) return answerBadRequest(socket as Socket);
      const res = new ServerResponse(req);
      res.shouldKeepAlive = false;
      res.assignSocket(socket as Socket);
      // The connection is this request's alone: closed after the answer, also when the client keeps its side open.
      res.once('finish', () => lingeringClose(socket as Socket));
      connections.set(req, { socket, head });
      handler(req, res);
    };
    // Pipelined behind requests still being answered: its turn comes once the last of them is sent (Node hands the
    // connection to each queued answer in turn as the one before finishes).
    const whenIdle = () => {
      if (socket.destroyed) return;
      const before = answerInFlight(socket as Socket);
      if (before) before.once('finish', whenIdle);
      else serve();
    };
    whenIdle();
  });
}

/** The connection of a request that asked to switch protocols; undefined for any other request. */
export function upgradeConnectionOf(req: IncomingMessage): UpgradeConnection | undefined {
  return connections.get(req);
}
