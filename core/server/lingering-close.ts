import type { IncomingMessage } from 'node:http';
import { constants, type Http2ServerRequest } from 'node:http2';
import type { Socket } from 'node:net';

/**
 * How long a connection that is being closed after its last answer is still read (and what is read thrown away), and
 * how many bytes of a refused request body are thrown away at most, before it is destroyed.
 */
export const lingerLimits = { ms: 3_000, discardBytes: 8 * 1024 * 1024 };

/**
 * Closes `socket` after the answer already written to it, without losing that answer: half-closes it (the answer, then
 * FIN) and keeps reading until the client closes too, for at most `lingerLimits.ms`, then destroys it. Destroying it at
 * once, with input unread, makes the kernel send a reset, and a client still sending its request then sees
 * ECONNRESET or EPIPE instead of the answer. Go's net/http half-closes and waits the same way (closeWriteAndWait).
 */
export function lingeringClose(socket: Socket): void {
  if (!socket.writableEnded) socket.end();
  destroyAfter(socket, lingerLimits.ms);
}

/**
 * For a request whose body is refused before it was read (413): the rest of the body is read and thrown away, up to
 * `lingerLimits.discardBytes`, and the connection, which the answer says is closed (`Connection: close`), is closed
 * with `lingeringClose` once the answer is sent. Node's own close after such an answer destroys the connection as soon
 * as the answer is flushed, while the client is still sending. Past `discardBytes` the connection stops being read
 * rather than being destroyed: a reset could still overtake the answer in the client's receive buffer; unread, the
 * client's sending stalls until the deadline destroys the connection.
 */
export function discardBodyThenClose(req: IncomingMessage): void {
  const socket = req.socket;
  let discarded = 0;
  const discard = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded <= lingerLimits.discardBytes) return;
    req.off('data', discard);
    req.pause();
    socket.pause();
  };
  req.on('data', discard);
  req.resume();
  destroyAfter(socket, lingerLimits.ms);
  // Node's http server calls this once the answer that says `Connection: close` is sent.
  socket.destroySoon = () => lingeringClose(socket);
}

/** How long after an HTTP/2 answer is handed over its frames are taken to have been sent. */
const answerFlushMs = 50;

/**
 * HTTP/2's form of `discardBodyThenClose`: the connection stays open (other streams share it); the rest of the
 * request is read and thrown away, and once the answer is out and `lingerLimits.discardBytes` more arrived or
 * `lingerLimits.ms` passed, the stream is reset with NO_ERROR, which tells the client to stop sending without failing
 * the request (RFC 9113 §8.1). A reset as the answer is written goes out too early: nghttp2 sends a RST_STREAM ahead
 * of the stream's queued DATA and drops them, and Go's client (kubectl) then reads no answer but a stream error.
 */
export function refuseRestOfStream(req: Http2ServerRequest): void {
  const stream = req.stream;
  let discarded = 0;
  let answerOut = false;
  let enough = false;
  const reset = () => {
    if (!answerOut || !enough) return;
    clearTimeout(timer);
    req.off('data', discard);
    if (!stream.closed) stream.close(constants.NGHTTP2_NO_ERROR);
  };
  const discard = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded <= lingerLimits.discardBytes) return;
    enough = true;
    reset();
  };
  const timer = setTimeout(() => {
    enough = true;
    reset();
  }, lingerLimits.ms);
  // 'finish': the answer is handed to nghttp2; a moment later its frames are on the wire
  stream.once('finish', () =>
    setTimeout(() => {
      answerOut = true;
      reset();
    }, answerFlushMs),
  );
  stream.once('close', () => clearTimeout(timer));
  req.on('data', discard);
  req.resume();
}

const deadlines = new WeakSet<Socket>();

/** Destroys `socket` in `ms` unless it is closed before; once per socket (the first deadline holds). */
function destroyAfter(socket: Socket, ms: number): void {
  if (deadlines.has(socket)) return;
  deadlines.add(socket);
  const timer = setTimeout(() => socket.destroy(), ms);
  socket.once('close', () => clearTimeout(timer));
}
