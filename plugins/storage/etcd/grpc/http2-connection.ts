import net from 'node:net';
import tls from 'node:tls';
import { HpackDecoder } from './hpack-decoder.js';

/**
 * A client HTTP/2 connection (RFC 9113) over one TCP or TLS socket, with only what a gRPC client needs: streams that
 * send one header block and data, and receive header blocks and data; flow control both ways; SETTINGS, PING,
 * RST_STREAM and GOAWAY. No server push, no priorities, and the request headers are sent as prepared blocks (HPACK
 * literals that never touch the peer's table).
 *
 * Why not node:http2: each of its streams is a full Duplex with listeners, async-hook bookkeeping and a trip through
 * nghttp2, about 50 µs of CPU per gRPC call — as much as the rest of kapi's GET path. A call here costs 15–25 µs
 * all included (framing, HPACK, protobuf, the socket), with the frames of concurrent calls sent in one write.
 */

export interface Http2StreamHandlers {
  /** A complete header block (response headers or trailers); `endStream` when the peer has finished the stream. */
  onHeaders(fields: [string, string][], endStream: boolean): void;
  onData(data: Buffer, endStream: boolean): void;
  /**
   * The stream ended abnormally: reset by the peer, refused (GOAWAY, REFUSED_STREAM) or the connection was lost.
   * `notSent`: the peer certainly did not process the request — it never left (no connection), or the peer `refused`
   * it (it did not act on it; asking again, on a new stream, is what HTTP/2 expects).
   */
  onReset(err: Error, notSent: boolean, refused?: boolean): void;
}

export interface Http2ClientStream {
  /** Sends more data (after the request's first), ending the stream from this side when `end`. */
  write(data: Buffer, end: boolean): void;
  /** Resets the stream (CANCEL); no handler is called after this. */
  cancel(): void;
}

export interface Http2ConnectionOptions {
  url: URL;
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer };
  /** The receive window of the connection and of every stream. */
  windowBytes: number;
  keepaliveMs: number;
  /** How long a PING may go unanswered, and the connection take to come up, before the connection is dropped. */
  keepaliveTimeoutMs: number;
  /** The connection is closed; it takes no more streams. */
  onClose(): void;
}

const enum FrameType {
  Data = 0,
  Headers = 1,
  Priority = 2,
  RstStream = 3,
  Settings = 4,
  PushPromise = 5,
  Ping = 6,
  GoAway = 7,
  WindowUpdate = 8,
  Continuation = 9,
}

const enum Flag {
  EndStream = 0x1,
  Ack = 0x1,
  EndHeaders = 0x4,
  Padded = 0x8,
  Priority = 0x20,
}

const enum Setting {
  HeaderTableSize = 0x1,
  EnablePush = 0x2,
  MaxConcurrentStreams = 0x3,
  InitialWindowSize = 0x4,
  MaxFrameSize = 0x5,
  MaxHeaderListSize = 0x6,
}

const enum ErrorCode {
  NoError = 0x0,
  ProtocolError = 0x1,
  FlowControlError = 0x3,
  FrameSizeError = 0x6,
  RefusedStream = 0x7,
  Cancel = 0x8,
  CompressionError = 0x9,
}

const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const defaultWindow = 65_535;
const maxStreamId = 2 ** 31 - 1;
// Frames larger than this are refused (we do not raise SETTINGS_MAX_FRAME_SIZE above its default).
const maxReceiveFrame = 16_384;
/** SETTINGS_MAX_HEADER_LIST_SIZE this side advertises and enforces: etcd's headers and trailers are a few hundred bytes. */
const maxHeaderListBytes = 1024 * 1024;

interface Stream {
  /** 0 until the stream is opened (it may wait for the peer's concurrency limit). */
  id: number;
  readonly handlers: Http2StreamHandlers;
  /** What the peer still lets us send on this stream. */
  sendWindow: number;
  /** Data waiting for send window, and whether the last of it ends the stream. */
  queued: Buffer[];
  endQueued: boolean;
  /** This side has sent END_STREAM. */
  localEnded: boolean;
  /** Received bytes not yet given back with a WINDOW_UPDATE. */
  unacked: number;
}

/** A stream waiting for the peer's concurrency limit. */
interface Waiting {
  stream: Stream;
  block: Buffer;
}

class ProtocolError extends Error {
  constructor(
    message: string,
    readonly code: number = ErrorCode.ProtocolError,
  ) {
    super(message);
  }
}

export class Http2Connection {
  private readonly socket: net.Socket;
  private readonly streams = new Map<number, Stream>();
  private readonly waiting: Waiting[] = [];
  private readonly hpack = new HpackDecoder(4096, maxHeaderListBytes);
  private nextId = 1;
  private connected = false;
  private closed = false;
  /** No new streams: GOAWAY received, ids exhausted, or closing. */
  private draining = false;
  // Peer settings.
  private peerInitialWindow = defaultWindow;
  private peerMaxFrame = 16_384;
  private peerMaxStreams = Infinity;
  private sendWindow = defaultWindow;
  private recvUnacked = 0;
  // Incoming bytes not yet parsed, and a header block being continued.
  private pending: Buffer | undefined;
  private continuing: { id: number; parts: Buffer[]; bytes: number; endStream: boolean } | undefined;
  private corked = false;
  private keepalive?: NodeJS.Timeout;
  private pingTimer?: NodeJS.Timeout;
  private connectTimer?: NodeJS.Timeout;

  constructor(private readonly options: Http2ConnectionOptions) {
    const { url } = options;
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (url.protocol === 'https:') {
      this.socket = tls.connect({
        host,
        port,
        ALPNProtocols: ['h2'],
        ...(net.isIP(host) ? {} : { servername: host }),
        ...(options.tls?.ca ? { ca: options.tls.ca } : {}),
        ...(options.tls?.cert ? { cert: options.tls.cert, key: options.tls.key } : {}),
      });
      this.socket.once('secureConnect', () => {
        if ((this.socket as tls.TLSSocket).alpnProtocol !== 'h2') this.destroy(new Error(`${url.origin} does not speak HTTP/2 (ALPN)`));
        else this.onConnect();
      });
    } else {
      this.socket = net.connect({ host, port });
      this.socket.once('connect', () => this.onConnect());
    }
    // A host that drops packets would leave the socket connecting for minutes, every call to it waiting out its deadline.
    this.connectTimer = setTimeout(
      () => this.destroy(new Error(`no connection to ${url.host} within ${options.keepaliveTimeoutMs} ms`)),
      options.keepaliveTimeoutMs,
    ).unref();
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.onBytes(chunk));
    this.socket.on('error', (err) => this.destroy(err));
    this.socket.on('close', () => this.destroy(new Error('connection closed')));
    this.send(preface);
    this.send(
      settingsFrame([
        [Setting.EnablePush, 0],
        [Setting.InitialWindowSize, options.windowBytes],
        [Setting.MaxHeaderListSize, maxHeaderListBytes],
      ]),
    );
    this.send(windowUpdateFrame(0, options.windowBytes - defaultWindow));
  }

  /** Whether new streams may be opened here. */
  get usable(): boolean {
    return !this.closed && !this.draining;
  }

  /** Opens a stream with the request's header block and first data (if any). */
  request(block: Buffer, data: Buffer | undefined, end: boolean, handlers: Http2StreamHandlers): Http2ClientStream {
    const stream: Stream = {
      id: 0,
      handlers,
      sendWindow: 0,
      queued: data ? [data] : [],
      endQueued: end,
      localEnded: false,
      unacked: 0,
    };
    const handle: Http2ClientStream = {
      write: (more, endNow) => this.sendData(stream, more, endNow),
      cancel: () => this.cancel(stream),
    };
    if (this.closed || this.draining) {
      queueMicrotask(() => handlers.onReset(new Error('connection is closing'), true, true));
      return handle;
    }
    const waiting: Waiting = { stream, block };
    if (this.streams.size >= this.peerMaxStreams) this.waiting.push(waiting);
    else this.open(waiting);
    return handle;
  }

  /** Closes the connection; streams still open are reset (not sent when the connection never came up). */
  close(): void {
    this.destroy(new Error('connection closed by the client'));
  }

  /** Sends the stream's HEADERS (ending it there when it has nothing to send), then what the windows allow. */
  private open(w: Waiting): void {
    const s = w.stream;
    s.id = this.nextId;
    this.nextId += 2;
    if (this.nextId > maxStreamId) this.draining = true;
    s.sendWindow = this.peerInitialWindow;
    this.streams.set(s.id, s);
    const endNow = s.endQueued && s.queued.length === 0;
    this.send(frameHeader(w.block.length, FrameType.Headers, Flag.EndHeaders | (endNow ? Flag.EndStream : 0), s.id), w.block);
    if (endNow) s.localEnded = true;
    else this.flushStream(s);
  }

  private sendData(s: Stream, data: Buffer, end: boolean): void {
    if (s.localEnded || s.endQueued) return;
    s.queued.push(data);
    s.endQueued = end;
    if (this.streams.get(s.id) === s) this.flushStream(s);
  }

  /** Sends what the windows allow of the stream's queued data. */
  private flushStream(s: Stream): void {
    while (s.queued.length > 0) {
      const chunk = s.queued[0]!;
      const n = Math.max(0, Math.min(chunk.length, s.sendWindow, this.sendWindow, this.peerMaxFrame));
      if (n <= 0 && chunk.length > 0) return;
      const last = n === chunk.length && s.queued.length === 1;
      const flags = last && s.endQueued ? Flag.EndStream : 0;
      this.send(frameHeader(n, FrameType.Data, flags, s.id), chunk.subarray(0, n));
      s.sendWindow -= n;
      this.sendWindow -= n;
      if (n === chunk.length) s.queued.shift();
      else s.queued[0] = chunk.subarray(n);
      if (flags) s.localEnded = true;
    }
  }

  private cancel(s: Stream): void {
    if (!this.streams.delete(s.id)) {
      const i = this.waiting.findIndex((w) => w.stream === s);
      if (i >= 0) this.waiting.splice(i, 1);
      return;
    }
    if (!this.closed) this.send(rstStreamFrame(s.id, ErrorCode.Cancel));
    this.streamGone();
  }

  /**
   * A stream finished: let a waiting one open. A draining connection refuses its waiting streams (they go out on a new
   * connection) and closes once its open streams are done.
   */
  private streamGone(): void {
    while (this.waiting.length > 0 && this.streams.size < this.peerMaxStreams && !this.draining && !this.closed) {
      this.open(this.waiting.shift()!);
    }
    if (!this.draining) return;
    for (const w of this.waiting.splice(0)) w.stream.handlers.onReset(new Error('connection is closing'), true, true);
    if (this.streams.size === 0) this.destroy(new Error('connection drained'));
  }

  private onConnect(): void {
    this.connected = true;
    clearTimeout(this.connectTimer);
    this.keepalive = setInterval(() => this.ping(), this.options.keepaliveMs).unref();
  }

  /** Checks the peer is still there (a call timed out): a PING it must answer in time, else the connection is dropped. */
  ping(): void {
    if (!this.connected) return; // the connect timeout covers a connection still coming up
    if (this.pingTimer || this.closed) return;
    this.send(pingFrame(0));
    this.pingTimer = setTimeout(() => this.destroy(new Error('keepalive ping not answered')), this.options.keepaliveTimeoutMs).unref();
  }

  private onBytes(chunk: Buffer): void {
    if (this.closed) return; // after a protocol error the socket is read, and ignored, until it closes
    let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let pos = 0;
    try {
      while (buf.length - pos >= 9) {
        const length = buf.readUIntBE(pos, 3);
        if (length > maxReceiveFrame) throw new ProtocolError(`frame of ${length} bytes exceeds the maximum frame size`, ErrorCode.FrameSizeError);
        if (buf.length - pos < 9 + length) break;
        const type = buf[pos + 3]!;
        const flags = buf[pos + 4]!;
        const id = buf.readUInt32BE(pos + 5) & 0x7fffffff;
        this.onFrame(type, flags, id, buf.subarray(pos + 9, pos + 9 + length));
        if (this.closed) return;
        pos += 9 + length;
      }
    } catch (err) {
      const code = err instanceof ProtocolError ? err.code : ErrorCode.CompressionError;
      this.destroy(new Error(`HTTP/2 protocol error from etcd: ${(err as Error).message}`), code);
      return;
    }
    buf = buf.subarray(pos);
    this.pending = buf.length > 0 ? Buffer.from(buf) : undefined;
  }

  private onFrame(type: number, flags: number, id: number, payload: Buffer): void {
    if (this.continuing && type !== FrameType.Continuation) throw new ProtocolError('header block interrupted');
    switch (type) {
      case FrameType.Data:
        return this.onData(flags, id, payload);
      case FrameType.Headers: {
        let p = unpad(flags, payload);
        if (flags & Flag.Priority) p = p.subarray(5);
        return this.onHeaderFragment(id, p, (flags & Flag.EndHeaders) !== 0, (flags & Flag.EndStream) !== 0);
      }
      case FrameType.Continuation:
        if (!this.continuing || this.continuing.id !== id) throw new ProtocolError('unexpected CONTINUATION');
        return this.onHeaderFragment(id, payload, (flags & Flag.EndHeaders) !== 0, this.continuing.endStream);
      case FrameType.RstStream:
        return this.onRstStream(id, payload.readUInt32BE(0));
      case FrameType.Settings:
        if (flags & Flag.Ack) return;
        return this.onSettings(payload);
      case FrameType.Ping:
        if (flags & Flag.Ack) {
          clearTimeout(this.pingTimer);
          this.pingTimer = undefined;
        } else this.send(frameHeader(8, FrameType.Ping, Flag.Ack, 0), payload);
        return;
      case FrameType.GoAway:
        return this.onGoAway(payload.readUInt32BE(0) & 0x7fffffff, payload.readUInt32BE(4));
      case FrameType.WindowUpdate:
        return this.onWindowUpdate(id, payload.readUInt32BE(0) & 0x7fffffff);
      case FrameType.PushPromise:
        throw new ProtocolError('PUSH_PROMISE although push is disabled');
      default:
        return; // PRIORITY and unknown frame types are ignored (RFC 9113 §4.1, §5.5)
    }
  }

  private onData(flags: number, id: number, payload: Buffer): void {
    // Flow control counts the whole payload, padding included, whether or not the stream still exists.
    this.recvUnacked += payload.length;
    if (this.recvUnacked >= this.options.windowBytes / 2) {
      this.send(windowUpdateFrame(0, this.recvUnacked));
      this.recvUnacked = 0;
    }
    const s = this.streams.get(id);
    if (!s) return;
    const end = (flags & Flag.EndStream) !== 0;
    if (!end) {
      s.unacked += payload.length;
      if (s.unacked >= this.options.windowBytes / 2) {
        this.send(windowUpdateFrame(id, s.unacked));
        s.unacked = 0;
      }
    }
    const data = unpad(flags, payload);
    if (end) this.remoteEnded(s);
    s.handlers.onData(data, end);
  }

  private onHeaderFragment(id: number, fragment: Buffer, endHeaders: boolean, endStream: boolean): void {
    if (!endHeaders) {
      if (!this.continuing) this.continuing = { id, parts: [], bytes: 0, endStream };
      this.continuing.parts.push(Buffer.from(fragment));
      // On the wire a block is no larger than the list it decodes to (table size updates aside), so the same cap
      // bounds what a stream of CONTINUATION frames can make this side buffer.
      this.continuing.bytes += fragment.length;
      if (this.continuing.bytes > maxHeaderListBytes) throw new ProtocolError(`header block exceeds ${maxHeaderListBytes} bytes`);
      return;
    }
    let block = fragment;
    if (this.continuing) {
      block = Buffer.concat([...this.continuing.parts, fragment]);
      this.continuing = undefined;
    }
    // Every block is decoded, even for a stream already gone: the decoder's table must follow the peer's.
    const fields = this.hpack.decode(block);
    const s = this.streams.get(id);
    if (!s) return;
    if (endStream) this.remoteEnded(s);
    s.handlers.onHeaders(fields, endStream);
  }

  /** The peer finished the stream: it is closed (a stream this side has not ended yet is reset). */
  private remoteEnded(s: Stream): void {
    this.streams.delete(s.id);
    if (!s.localEnded) this.send(rstStreamFrame(s.id, ErrorCode.NoError));
    this.streamGone();
  }

  private onRstStream(id: number, code: number): void {
    const s = this.streams.get(id);
    if (!s) return;
    this.streams.delete(id);
    this.streamGone();
    const refused = code === ErrorCode.RefusedStream;
    s.handlers.onReset(new Error(`etcd reset the stream (HTTP/2 error code ${code})`), refused, refused);
  }

  private onSettings(payload: Buffer): void {
    for (let i = 0; i + 6 <= payload.length; i += 6) {
      const value = payload.readUInt32BE(i + 2);
      switch (payload.readUInt16BE(i)) {
        case Setting.MaxConcurrentStreams:
          this.peerMaxStreams = value;
          break;
        case Setting.InitialWindowSize: {
          if (value > maxStreamId) throw new ProtocolError('initial window size too large', ErrorCode.FlowControlError);
          const delta = value - this.peerInitialWindow;
          this.peerInitialWindow = value;
          for (const s of this.streams.values()) s.sendWindow += delta;
          break;
        }
        case Setting.MaxFrameSize:
          this.peerMaxFrame = value;
          break;
        default:
          break; // the header table size only concerns an encoder that indexes, which ours does not
      }
    }
    this.send(frameHeader(0, FrameType.Settings, Flag.Ack, 0));
    for (const s of [...this.streams.values()]) this.flushStream(s);
    this.streamGone();
  }

  private onGoAway(lastStreamId: number, code: number): void {
    this.draining = true;
    const err = new Error(`etcd is closing the connection (GOAWAY, HTTP/2 error code ${code})`);
    for (const [id, s] of [...this.streams]) {
      if (id <= lastStreamId) continue;
      this.streams.delete(id);
      s.handlers.onReset(err, true, true);
    }
    for (const w of this.waiting.splice(0)) w.stream.handlers.onReset(err, true, true);
    this.options.onClose();
    this.streamGone();
  }

  private onWindowUpdate(id: number, increment: number): void {
    if (id === 0) {
      this.sendWindow += increment;
      for (const s of [...this.streams.values()]) if (s.queued.length > 0) this.flushStream(s);
      return;
    }
    const s = this.streams.get(id);
    if (!s) return;
    s.sendWindow += increment;
    this.flushStream(s);
  }

  /** Writes, batched per tick (one writev for all the frames of concurrent calls). */
  private send(head: Buffer, payload?: Buffer): void {
    if (this.closed) return;
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(head);
    if (payload && payload.length > 0) this.socket.write(payload);
  }

  /** Ends the connection and every stream on it; with `goAwayCode`, a connection error, the peer is told first. */
  private destroy(err: Error, goAwayCode?: ErrorCode): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepalive);
    clearTimeout(this.pingTimer);
    clearTimeout(this.connectTimer);
    if (goAwayCode === undefined) this.socket.destroy();
    else {
      // end() writes what is still corked and then the GOAWAY (destroy() would drop both), and gives the peer a moment
      // to read it. The last stream id a client's GOAWAY names is the last one the server opened: none.
      this.socket.end(goAwayFrame(0, goAwayCode));
      setTimeout(() => this.socket.destroy(), 1_000).unref();
    }
    const notSent = !this.connected;
    const streams = [...this.streams.values()];
    this.streams.clear();
    const waiting = this.waiting.splice(0);
    this.options.onClose();
    for (const s of streams) s.handlers.onReset(err, notSent);
    for (const w of waiting) w.stream.handlers.onReset(err, true);
  }
}

function frameHeader(length: number, type: number, flags: number, id: number): Buffer {
  const b = Buffer.allocUnsafe(9);
  b.writeUIntBE(length, 0, 3);
  b[3] = type;
  b[4] = flags;
  b.writeUInt32BE(id, 5);
  return b;
}

function settingsFrame(settings: [number, number][]): Buffer {
  const b = Buffer.concat([frameHeader(settings.length * 6, FrameType.Settings, 0, 0), Buffer.alloc(settings.length * 6)]);
  settings.forEach(([k, v], i) => {
    b.writeUInt16BE(k, 9 + i * 6);
    b.writeUInt32BE(v, 11 + i * 6);
  });
  return b;
}

function windowUpdateFrame(id: number, increment: number): Buffer {
  const b = frameHeader(4, FrameType.WindowUpdate, 0, id);
  return Buffer.concat([b, uint32(increment)]);
}

function rstStreamFrame(id: number, code: number): Buffer {
  return Buffer.concat([frameHeader(4, FrameType.RstStream, 0, id), uint32(code)]);
}

function goAwayFrame(lastStreamId: number, code: number): Buffer {
  return Buffer.concat([frameHeader(8, FrameType.GoAway, 0, 0), uint32(lastStreamId), uint32(code)]);
}

function pingFrame(n: number): Buffer {
  return Buffer.concat([frameHeader(8, FrameType.Ping, 0, 0), Buffer.alloc(4), uint32(n)]);
}

function uint32(v: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(v >>> 0, 0);
  return b;
}

/** The payload without its padding (PADDED flag: a pad-length byte first, that many zero bytes last). */
function unpad(flags: number, payload: Buffer): Buffer {
  if (!(flags & Flag.Padded)) return payload;
  const padLength = payload[0] ?? 0;
  if (padLength >= payload.length) throw new ProtocolError('padding exceeds the frame');
  return payload.subarray(1, payload.length - padLength);
}
