import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';

/** How bytes are framed on their way into a response stream; `name` tells framings apart in encoding memos. */
export interface StreamFraming {
  readonly name: string;
  frame(bytes: Buffer): Buffer;
}

const crlf = Buffer.from('\r\n', 'latin1');

/** HTTP/1.1's chunked transfer coding, one chunk: the size in hex, CRLF, the bytes, CRLF. */
export const chunkedFraming: StreamFraming = {
  name: 'chunked',
  frame(bytes) {
    const size = bytes.length.toString(16);
    const framed = Buffer.allocUnsafe(size.length + bytes.length + 4);
    let at = framed.write(size, 0, 'latin1');
    at += crlf.copy(framed, at);
    at += bytes.copy(framed, at);
    crlf.copy(framed, at);
    return framed;
  },
};

/**
 * A response whose body is streamed (a watch), once its headers are sent. A chunked HTTP/1.1 response is written
 * straight to its socket in chunks framed by the caller, who can frame bytes shared by many responses once for all
 * (a watch event fanned out to a thousand watches): `res.write` would frame each write anew, as four pieces gathered
 * into one writev after a cork and a nextTick. Other responses (HTTP/2, HTTP/1.0, a pipelined response whose socket
 * is still another's) go through `res.write`.
 */
export class StreamedResponse {
  /** How `send` expects its bytes framed; undefined: as they are. */
  readonly framing?: StreamFraming;

  constructor(private readonly res: ServerResponse | Http2ServerResponse) {
    // A response holds its socket, with its headers written to it, from the moment it is the connection's current one.
    if ('chunkedEncoding' in res && res.chunkedEncoding && res.socket && res.headersSent) this.framing = chunkedFraming;
  }

  /** Bytes framed for `send` (a copy when the stream frames). */
  frame(bytes: Buffer): Buffer {
    return this.framing ? this.framing.frame(bytes) : bytes;
  }

  /** Writes bytes framed with `framing`. */
  send(framed: Buffer): void {
    if (!this.framing) {
      (this.res as ServerResponse).write(framed); // both kinds take a Buffer
      return;
    }
    const socket = this.res.socket;
    // A closed connection ends the response ('close'): what is written meanwhile goes nowhere, as with res.write.
    if (socket && !socket.destroyed) socket.write(framed);
  }

  /** Output written and not yet taken by the client. */
  get bufferedBytes(): number {
    return this.res.writableLength;
  }
}
