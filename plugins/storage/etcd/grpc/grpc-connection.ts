import http2, { type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { GrpcCode, GrpcError, statusError } from './grpc-error.js';
import { GrpcFrames } from './grpc-frames.js';

/** TLS material for an `https://` endpoint (PEM contents). */
export interface GrpcTls {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

export interface GrpcConnectionOptions {
  /** `http://host:port` or `https://host:port`. */
  url: string;
  tls?: GrpcTls;
  /** Ping interval; a connection whose ping is not answered within `keepaliveTimeoutMs` is dropped. */
  keepaliveMs?: number;
  keepaliveTimeoutMs?: number;
}

export interface GrpcStreamHandlers {
  /** One message (without its gRPC length prefix). */
  onMessage(message: Buffer): void;
  /** The stream ended (by the server or a failure), not by `cancel()`. Called at most once. */
  onEnd(err: Error): void;
}

export interface GrpcStream {
  /** Sends one gRPC length-prefixed frame. */
  write(frame: Buffer): void;
  /** Ends the stream from this side; no `onEnd` follows. */
  cancel(): void;
}

const { NGHTTP2_CANCEL } = http2.constants;

// Large windows: a list of many objects arrives at full speed rather than one 64 KiB window per round trip.
const windowBytes = 16 * 1024 * 1024;

/**
 * One HTTP/2 connection to one gRPC server (an etcd member), opened on first use and again after it was lost. Unary
 * calls and bidirectional streams share it, as gRPC clients do.
 *
 * A call that fails before its stream was given an id never reached the server: it rejects with UNAVAILABLE "No
 * connection established", which callers may retry even for writes. Any other failure leaves the outcome unknown.
 */
export class GrpcConnection {
  private session?: ClientHttp2Session;
  private keepalive?: NodeJS.Timeout;
  private closed = false;
  private readonly headers = new Map<string, http2.OutgoingHttpHeaders>();

  constructor(private readonly options: GrpcConnectionOptions) {}

  /** A unary call: sends `frame` (a length-prefixed request), resolves with the response message's bytes. */
  unary(path: string, frame: Buffer, deadline: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let stream: ClientHttp2Stream;
      try {
        stream = this.open(path);
      } catch (err) {
        reject(err);
        return;
      }
      const frames = new GrpcFrames();
      let status: GrpcError | undefined | null = null;
      let settled = false;
      const finish = (err: Error | undefined) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) return reject(err);
        try {
          const message = frames.take();
          if (message) resolve(message);
          else reject(new GrpcError(GrpcCode.INTERNAL, 'the server sent no response message'));
        } catch (e) {
          reject(new GrpcError(GrpcCode.INTERNAL, (e as Error).message));
        }
      };
      const timer = setTimeout(() => {
        stream.close(NGHTTP2_CANCEL);
        finish(new GrpcError(GrpcCode.DEADLINE_EXCEEDED, 'Deadline exceeded'));
      }, Math.max(0, deadline - Date.now()));
      const onHeaders = (h: IncomingHttpHeaders) => {
        const s = h['grpc-status'];
        if (s !== undefined) status = statusError(String(s), h['grpc-message'] as string | undefined) ?? undefined;
        else if (h[':status'] !== undefined && Number(h[':status']) !== 200) {
          status = new GrpcError(GrpcCode.UNKNOWN, `unexpected HTTP status ${h[':status']}`);
        }
      };
      stream.on('response', onHeaders);
      stream.on('trailers', onHeaders);
      stream.on('data', (chunk: Buffer) => frames.push(chunk));
      stream.on('error', (err: Error) => finish(this.failure(stream, err)));
      stream.on('close', () => {
        if (status === null) finish(this.failure(stream, new Error(`stream closed (code ${stream.rstCode})`)));
        else finish(status);
      });
      stream.end(frame);
    });
  }

  /** A bidirectional stream (a watch). */
  stream(path: string, handlers: GrpcStreamHandlers): GrpcStream {
    let ended = false;
    const end = (err: Error) => {
      if (ended) return;
      ended = true;
      handlers.onEnd(err);
    };
    let stream: ClientHttp2Stream;
    try {
      stream = this.open(path);
    } catch (err) {
      queueMicrotask(() => end(err as Error));
      return { write: () => undefined, cancel: () => undefined };
    }
    const frames = new GrpcFrames();
    let status: GrpcError | undefined;
    const onHeaders = (h: IncomingHttpHeaders) => {
      const s = h['grpc-status'];
      if (s !== undefined) status = statusError(String(s), h['grpc-message'] as string | undefined);
    };
    stream.on('response', onHeaders);
    stream.on('trailers', onHeaders);
    stream.on('data', (chunk: Buffer) => {
      frames.push(chunk);
      try {
        for (let m = frames.take(); m && !ended; m = frames.take()) handlers.onMessage(m);
      } catch (err) {
        stream.close(NGHTTP2_CANCEL);
        end(new GrpcError(GrpcCode.INTERNAL, (err as Error).message));
      }
    });
    stream.on('error', (err: Error) => end(this.failure(stream, err)));
    stream.on('close', () => end(status ?? new GrpcError(GrpcCode.UNAVAILABLE, 'the server ended the stream')));
    return {
      write: (frame) => {
        if (!ended && !stream.destroyed) stream.write(frame);
      },
      cancel: () => {
        ended = true;
        if (!stream.destroyed) stream.close(NGHTTP2_CANCEL);
      },
    };
  }

  close(): void {
    this.closed = true;
    this.drop();
  }

  private open(path: string): ClientHttp2Stream {
    if (this.closed) throw new Error('etcd client was already closed');
    let headers = this.headers.get(path);
    if (!headers) {
      headers = { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' };
      this.headers.set(path, headers);
    }
    return this.connect().request(headers, { endStream: false });
  }

  private connect(): ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const { tls } = this.options;
    const session = http2.connect(this.options.url, {
      ...(tls?.ca ? { ca: tls.ca } : {}),
      ...(tls?.cert ? { cert: tls.cert, key: tls.key } : {}),
      settings: { enablePush: false, initialWindowSize: windowBytes },
      // Responses of many objects are large; nghttp2's default of 10 MB of buffered data per session is too little.
      maxSessionMemory: 256,
    });
    session.on('connect', () => session.setLocalWindowSize(windowBytes));
    // Failures reach the streams; the session's own error needs a listener so it is not thrown.
    session.on('error', () => undefined);
    session.on('close', () => {
      if (this.session === session) this.drop();
    });
    this.session = session;
    this.startKeepalive(session);
    return session;
  }

  private startKeepalive(session: ClientHttp2Session): void {
    clearInterval(this.keepalive);
    const timeoutMs = this.options.keepaliveTimeoutMs ?? 10_000;
    this.keepalive = setInterval(() => {
      if (session.destroyed || !session.socket) return;
      const timer = setTimeout(() => session.destroy(new Error('keepalive ping not answered')), timeoutMs).unref();
      session.ping((err) => {
        clearTimeout(timer);
        if (err) session.destroy(err);
      });
    }, this.options.keepaliveMs ?? 30_000).unref();
  }

  private drop(): void {
    clearInterval(this.keepalive);
    this.keepalive = undefined;
    const session = this.session;
    this.session = undefined;
    session?.destroy();
  }

  /** A failed stream's error: "not sent" when the stream never got an id (no connection), otherwise unavailable. */
  private failure(stream: ClientHttp2Stream, err: Error): GrpcError {
    if (err instanceof GrpcError) return err;
    const cause = (err as { cause?: Error }).cause?.message ?? err.message;
    if (stream.pending || stream.id === undefined) return new GrpcError(GrpcCode.UNAVAILABLE, `No connection established: ${cause}`, true);
    return new GrpcError(GrpcCode.UNAVAILABLE, `connection to ${this.options.url} lost: ${cause}`);
  }
}
