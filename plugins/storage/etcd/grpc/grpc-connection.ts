import http2 from 'node:http2';
import { GrpcCode, GrpcError, statusError } from './grpc-error.js';
import { GrpcFrames } from './grpc-frames.js';
import { requestStream } from '../../../../lib/http2/client-request.js';

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

const { NGHTTP2_CANCEL, NGHTTP2_NO_ERROR, NGHTTP2_REFUSED_STREAM } = http2.constants;

// Large windows: a list of many objects arrives at full speed rather than one 64 KiB window per round trip.
const windowBytes = 16 * 1024 * 1024;
/** SETTINGS_MAX_HEADER_LIST_SIZE this side advertises (and Node enforces): etcd's headers are a few hundred bytes. */
const maxHeaderListBytes = 1024 * 1024;
/** Attempts of a unary call the server keeps refusing. */
const maxRefusals = 3;

/** One HTTP/2 session and whether it ever came up (a request on a session that never did was not sent). */
interface Session {
  readonly http2: http2.ClientHttp2Session;
  connected: boolean;
  /** A PING sent and not answered yet. */
  pinging: boolean;
}

/**
 * gRPC to one server (an etcd member) over one node:http2 session, opened on first use and again after it was lost.
 * Unary calls and bidirectional streams share it, as gRPC clients do. Node (nghttp2) does the HTTP/2: framing, HPACK,
 * flow control, the server's stream limit, GOAWAY; this class does gRPC on top: length-prefixed messages, the status
 * in `grpc-status`/`grpc-message`, deadlines (`grpc-timeout`), keepalive pings and what a failure means.
 *
 * A call that failed before the server could act on it (no connection, or refused by GOAWAY/REFUSED_STREAM) rejects
 * with UNAVAILABLE "No connection established" and `notSent`, which callers may retry even for writes. Any other
 * failure leaves the outcome unknown.
 */
export class GrpcConnection {
  private session?: Session;
  private closed = false;
  private readonly url: URL;
  private readonly keepaliveMs: number;
  private readonly keepaliveTimeoutMs: number;

  constructor(private readonly options: GrpcConnectionOptions) {
    this.url = new URL(options.url);
    this.keepaliveMs = options.keepaliveMs ?? 30_000;
    this.keepaliveTimeoutMs = options.keepaliveTimeoutMs ?? 10_000;
  }

  /**
   * A unary call: sends `frame` (a length-prefixed request), resolves with the response message's bytes. A call the
   * server refused without acting on it (stream limit, GOAWAY) is sent again, as gRPC clients do, a few times.
   */
  unary(path: string, frame: Buffer, deadline: number): Promise<Buffer> {
    return this.attempt(path, frame, deadline, 1);
  }

  private attempt(path: string, frame: Buffer, deadline: number, attempt: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let session: Session;
      let stream: http2.ClientHttp2Stream;
      try {
        session = this.connect();
        stream = requestStream(session.http2, requestHeaders(path, deadline));
      } catch (err) {
        return reject(err);
      }
      const frames = new GrpcFrames();
      let status: GrpcError | undefined;
      let sawStatus = false;
      let failed: Error | undefined;
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        stream.close(NGHTTP2_CANCEL);
        // No answer in time: is the server still there? A connection to a vanished one is dropped within the ping timeout.
        this.ping(session);
        reject(new GrpcError(GrpcCode.DEADLINE_EXCEEDED, 'Deadline exceeded'));
      }, Math.max(0, deadline - Date.now()));
      const onStatus = (headers: http2.IncomingHttpHeaders) => {
        const s = responseStatus(headers);
        if (!s) return;
        status = s.error;
        sawStatus ||= s.final;
      };
      stream.on('response', onStatus);
      stream.on('trailers', onStatus);
      stream.on('data', (chunk: Buffer) => frames.push(chunk));
      stream.on('error', (err) => (failed = err));
      stream.on('close', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (sawStatus && status) return reject(status);
        if (sawStatus) {
          try {
            const message = frames.take();
            return message ? resolve(message) : reject(new GrpcError(GrpcCode.INTERNAL, 'the server sent no response message'));
          } catch (e) {
            return reject(new GrpcError(GrpcCode.INTERNAL, (e as Error).message));
          }
        }
        // Refused (REFUSED_STREAM, or above a GOAWAY's last stream): the server did not act on it, so it may go again.
        if (stream.rstCode === NGHTTP2_REFUSED_STREAM && attempt < maxRefusals && Date.now() < deadline) {
          return resolve(this.attempt(path, frame, deadline, attempt + 1));
        }
        reject(abnormalEnd(stream, failed, session) ?? status ?? new GrpcError(GrpcCode.INTERNAL, 'the server ended the call without a status'));
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
    let session: Session;
    let stream: http2.ClientHttp2Stream;
    try {
      session = this.connect();
      stream = requestStream(session.http2, streamHeaders(path));
    } catch (err) {
      queueMicrotask(() => end(err as Error));
      return { write: () => undefined, cancel: () => undefined };
    }
    const frames = new GrpcFrames();
    let status: GrpcError | undefined;
    let failed: Error | undefined;
    const onStatus = (headers: http2.IncomingHttpHeaders) => {
      status = responseStatus(headers)?.error ?? status;
    };
    stream.on('response', onStatus);
    stream.on('trailers', onStatus);
    stream.on('data', (chunk: Buffer) => {
      frames.push(chunk);
      try {
        for (let m = frames.take(); m && !ended; m = frames.take()) handlers.onMessage(m);
      } catch (err) {
        stream.close(NGHTTP2_CANCEL);
        end(new GrpcError(GrpcCode.INTERNAL, (err as Error).message));
      }
    });
    stream.on('error', (err) => (failed = err));
    stream.on('close', () => {
      end(abnormalEnd(stream, failed, session) ?? status ?? new GrpcError(GrpcCode.UNAVAILABLE, 'the server ended the stream'));
    });
    return {
      write: (frame) => {
        if (!ended && stream.writable) stream.write(frame);
      },
      cancel: () => {
        ended = true;
        stream.close(NGHTTP2_CANCEL);
      },
    };
  }

  close(): void {
    this.closed = true;
    this.session?.http2.destroy();
    this.session = undefined;
  }

  private connect(): Session {
    if (this.closed) throw new Error('etcd client was already closed');
    const current = this.session;
    if (current && !current.http2.closed && !current.http2.destroyed) return current;
    const { tls } = this.options;
    const h2 = http2.connect(this.url, {
      settings: { enablePush: false, initialWindowSize: windowBytes, maxHeaderListSize: maxHeaderListBytes },
      ...(tls?.ca ? { ca: tls.ca } : {}),
      ...(tls?.cert ? { cert: tls.cert, key: tls.key } : {}),
    });
    const session: Session = { http2: h2, connected: false, pinging: false };
    this.session = session;
    // A host that drops packets would leave the session connecting for minutes, every call to it waiting out its deadline.
    const connectTimer = setTimeout(
      () => h2.destroy(new Error(`no connection to ${this.url.host} within ${this.keepaliveTimeoutMs} ms`)),
      this.keepaliveTimeoutMs,
    ).unref();
    let keepalive: NodeJS.Timeout | undefined;
    h2.once('connect', () => {
      session.connected = true;
      clearTimeout(connectTimer);
      h2.setLocalWindowSize(windowBytes);
      keepalive = setInterval(() => this.ping(session), this.keepaliveMs).unref();
    });
    // The session's errors reach its streams (as their 'error' and 'close'); nothing else needs them.
    h2.on('error', () => undefined);
    // After a GOAWAY the session finishes its streams but takes no new ones: the next call opens another.
    h2.on('goaway', () => {
      if (this.session === session) this.session = undefined;
    });
    h2.once('close', () => {
      clearTimeout(connectTimer);
      clearInterval(keepalive);
      if (this.session === session) this.session = undefined;
    });
    return session;
  }

  /** Checks the peer is still there: a PING it must answer in time, else the session is dropped. */
  private ping(session: Session): void {
    // The connect timeout covers a session still coming up.
    if (!session.connected || session.pinging || session.http2.destroyed) return;
    session.pinging = true;
    const timer = setTimeout(() => session.http2.destroy(new Error('keepalive ping not answered')), this.keepaliveTimeoutMs).unref();
    session.http2.ping(() => {
      session.pinging = false;
      clearTimeout(timer);
    });
  }
}

/** A unary call's request headers, with its `grpc-timeout`. */
function requestHeaders(path: string, deadline: number): http2.OutgoingHttpHeaders {
  const headers = streamHeaders(path);
  headers['grpc-timeout'] = timeoutField(deadline);
  return headers;
}

function streamHeaders(path: string): http2.OutgoingHttpHeaders {
  return { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' };
}

/**
 * The gRPC status a header block carries: `final` when it has `grpc-status` (trailers, or a trailers-only response);
 * an error for a non-OK status or an HTTP status other than 200. Undefined for plain response headers.
 */
function responseStatus(headers: http2.IncomingHttpHeaders): { error: GrpcError | undefined; final: boolean } | undefined {
  const grpcStatus = headers['grpc-status'];
  if (grpcStatus !== undefined) return { error: statusError(String(grpcStatus), headers['grpc-message'] as string | undefined), final: true };
  const httpStatus = headers[':status'];
  if (httpStatus !== undefined && Number(httpStatus) !== 200) {
    return { error: new GrpcError(GrpcCode.UNKNOWN, `unexpected HTTP status ${httpStatus}`), final: false };
  }
  return undefined;
}

/**
 * The call's `grpc-timeout` (whole milliseconds left, at least 1), so the server gives up on it when this side does,
 * as a Go client's context deadline tells etcd. gRPC allows at most 8 digits.
 */
function timeoutField(deadline: number): string {
  return `${Math.min(99_999_999, Math.max(1, Math.ceil(deadline - Date.now())))}m`;
}

/**
 * How a stream that closed without a gRPC status failed, if it did: refused by the server (so not sent), or reset or
 * cut off with its connection (not sent only if the connection never came up). Undefined when the server ended it.
 */
function abnormalEnd(stream: http2.ClientHttp2Stream, failed: Error | undefined, session: Session): GrpcError | undefined {
  if (stream.rstCode === NGHTTP2_REFUSED_STREAM) return failure(failed ?? new Error('etcd refused the stream'), true);
  if (failed) return failure(failed, !session.connected);
  // A session that ends (the socket closed) closes its streams with CANCEL and no error.
  if (stream.rstCode !== NGHTTP2_NO_ERROR) return failure(new Error('connection closed'), !session.connected);
  return undefined;
}

function failure(err: Error, notSent: boolean): GrpcError {
  // A stream its session took down fails with ERR_HTTP2_STREAM_CANCEL, caused by the session's error: say that one.
  const reason = err.cause instanceof Error ? err.cause.message : err.message;
  return notSent
    ? new GrpcError(GrpcCode.UNAVAILABLE, `No connection established: ${reason}`, true)
    : new GrpcError(GrpcCode.UNAVAILABLE, `connection to etcd lost: ${reason}`);
}
