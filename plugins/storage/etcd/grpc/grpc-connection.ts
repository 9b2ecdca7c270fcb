import { GrpcCode, GrpcError, statusError } from './grpc-error.js';
import { GrpcFrames } from './grpc-frames.js';
import { encodeHeaderBlock } from './hpack-decoder.js';
import { Http2Connection, type Http2ClientStream } from './http2-connection.js';

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

// Large windows: a list of many objects arrives at full speed rather than one 64 KiB window per round trip.
const windowBytes = 16 * 1024 * 1024;
/** Attempts of a unary call the server keeps refusing. */
const maxRefusals = 3;

/** A call the server refused without acting on it: safe to send again. */
class RefusedError extends Error {
  constructor(readonly error: GrpcError) {
    super(error.message);
  }
}

/**
 * gRPC to one server (an etcd member) over one HTTP/2 connection, opened on first use and again after it was lost.
 * Unary calls and bidirectional streams share it, as gRPC clients do.
 *
 * A call that failed before the server could act on it (no connection, or refused by GOAWAY/REFUSED_STREAM) rejects
 * with UNAVAILABLE "No connection established" and `notSent`, which callers may retry even for writes. Any other
 * failure leaves the outcome unknown.
 */
export class GrpcConnection {
  private connection?: Http2Connection;
  private closed = false;
  private readonly url: URL;
  private readonly blocks = new Map<string, Buffer>();

  constructor(private readonly options: GrpcConnectionOptions) {
    this.url = new URL(options.url);
  }

  /**
   * A unary call: sends `frame` (a length-prefixed request), resolves with the response message's bytes. A call the
   * server refused without acting on it (stream limit, GOAWAY) is sent again, as gRPC clients do, a few times.
   */
  async unary(path: string, frame: Buffer, deadline: number): Promise<Buffer> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.unaryOnce(path, frame, deadline);
      } catch (err) {
        if (!(err instanceof RefusedError) || attempt >= maxRefusals || Date.now() >= deadline) throw err instanceof RefusedError ? err.error : err;
      }
    }
  }

  private unaryOnce(path: string, frame: Buffer, deadline: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const frames = new GrpcFrames();
      let status: GrpcError | undefined;
      let sawStatus = false;
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
      let stream: Http2ClientStream | undefined;
      let connection: Http2Connection | undefined;
      const timer = setTimeout(() => {
        stream?.cancel();
        // No answer in time: is the server still there? A connection to a vanished one is dropped within the ping timeout.
        connection?.ping();
        finish(new GrpcError(GrpcCode.DEADLINE_EXCEEDED, 'Deadline exceeded'));
      }, Math.max(0, deadline - Date.now()));
      try {
        connection = this.connect();
        stream = connection.request(Buffer.concat([this.block(path), timeoutField(deadline)]), frame, true, {
          onHeaders: (fields, end) => {
            const s = responseStatus(fields);
            if (s) {
              status = s.error;
              sawStatus ||= s.final;
            }
            if (end) finish(sawStatus ? status : (status ?? new GrpcError(GrpcCode.INTERNAL, 'the server ended the call without a status')));
          },
          onData: (data, end) => {
            frames.push(data);
            if (end) finish(new GrpcError(GrpcCode.INTERNAL, 'the server ended the call without a status'));
          },
          onReset: (err, notSent, refused) => finish(refused ? new RefusedError(failure(err, true)) : failure(err, notSent)),
        });
      } catch (err) {
        finish(err as Error);
      }
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
    let stream: Http2ClientStream;
    try {
      const frames = new GrpcFrames();
      let status: GrpcError | undefined;
      stream = this.connect().request(this.block(path), undefined, false, {
        onHeaders: (fields, last) => {
          status = responseStatus(fields)?.error ?? status;
          if (last) end(status ?? new GrpcError(GrpcCode.UNAVAILABLE, 'the server ended the stream'));
        },
        onData: (data, last) => {
          frames.push(data);
          try {
            for (let m = frames.take(); m && !ended; m = frames.take()) handlers.onMessage(m);
          } catch (err) {
            stream.cancel();
            end(new GrpcError(GrpcCode.INTERNAL, (err as Error).message));
          }
          if (last) end(new GrpcError(GrpcCode.UNAVAILABLE, 'the server ended the stream'));
        },
        onReset: (err, notSent) => end(failure(err, notSent)),
      });
    } catch (err) {
      queueMicrotask(() => end(err as Error));
      return { write: () => undefined, cancel: () => undefined };
    }
    return {
      write: (frame) => {
        if (!ended) stream.write(frame, false);
      },
      cancel: () => {
        ended = true;
        stream.cancel();
      },
    };
  }

  close(): void {
    this.closed = true;
    this.connection?.close();
    this.connection = undefined;
  }

  private connect(): Http2Connection {
    if (this.closed) throw new Error('etcd client was already closed');
    if (this.connection?.usable) return this.connection;
    const connection: Http2Connection = new Http2Connection({
      url: this.url,
      ...(this.options.tls ? { tls: this.options.tls } : {}),
      windowBytes,
      keepaliveMs: this.options.keepaliveMs ?? 30_000,
      keepaliveTimeoutMs: this.options.keepaliveTimeoutMs ?? 10_000,
      onClose: () => {
        if (this.connection === connection) this.connection = undefined;
      },
    });
    this.connection = connection;
    return connection;
  }

  /** The request's header block for a method, prepared once. */
  private block(path: string): Buffer {
    let block = this.blocks.get(path);
    if (!block) {
      block = encodeHeaderBlock([
        [':method', 'POST'],
        [':scheme', this.url.protocol === 'https:' ? 'https' : 'http'],
        [':path', path],
        [':authority', this.url.host],
        ['content-type', 'application/grpc'],
        ['te', 'trailers'],
      ]);
      this.blocks.set(path, block);
    }
    return block;
  }
}

/**
 * The gRPC status a header block carries: `final` when it has `grpc-status` (trailers, or a trailers-only response);
 * an error for a non-OK status or an HTTP status other than 200. Undefined for plain response headers.
 */
function responseStatus(fields: [string, string][]): { error: GrpcError | undefined; final: boolean } | undefined {
  let grpcStatus: string | undefined;
  let grpcMessage: string | undefined;
  let httpStatus: string | undefined;
  for (const [name, value] of fields) {
    if (name === 'grpc-status') grpcStatus = value;
    else if (name === 'grpc-message') grpcMessage = value;
    else if (name === ':status') httpStatus = value;
  }
  if (grpcStatus !== undefined) return { error: statusError(grpcStatus, grpcMessage), final: true };
  if (httpStatus !== undefined && httpStatus !== '200') {
    return { error: new GrpcError(GrpcCode.UNKNOWN, `unexpected HTTP status ${httpStatus}`), final: false };
  }
  return undefined;
}

/**
 * The call's `grpc-timeout` header (whole milliseconds left, at least 1), so the server gives up on it when this side
 * does, as a Go client's context deadline tells etcd. gRPC allows at most 8 digits.
 */
function timeoutField(deadline: number): Buffer {
  const ms = Math.min(99_999_999, Math.max(1, Math.ceil(deadline - Date.now())));
  return encodeHeaderBlock([['grpc-timeout', `${ms}m`]]);
}

function failure(err: Error, notSent: boolean): GrpcError {
  return notSent
    ? new GrpcError(GrpcCode.UNAVAILABLE, `No connection established: ${err.message}`, true)
    : new GrpcError(GrpcCode.UNAVAILABLE, `connection to etcd lost: ${err.message}`);
}
