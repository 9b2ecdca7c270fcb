import type { Context, Next } from 'koa';
import type { ServerResponse } from 'node:http';
import { Stream } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../contracts/api-error.js';
import { StatusReason } from '../contracts/status.js';
import type { HealthCheck } from '../contracts/health-check.js';
import { requestInfoOf } from './request-info-state.js';
import { isLongRunning } from '../request/long-running.js';
import { attachShutdownSignal, type ShutdownSignal } from './shutdown-signal.js';
import { lingeringClose } from './lingering-close.js';
import type { ShutdownOptions } from './api-server.js';

/** kube's ShutdownTimeout default (its request timeout). */
const defaultTimeoutMs = 60_000;
/** With `sendRetryAfter`, how long the connections left after the requests in flight have to close (kube: 2 s). */
const retryAfterCloseMs = 2_000;
/** kube ends watches no slower than this many a second, whatever the grace period. */
const minWatchTerminationsPerSecond = 200;
/** Health probes and metrics scrapes are served to the end (kube's pathPrefixesExemptFromRetryAfter). */
const exemptPathPrefixes = ['/readyz', '/livez', '/healthz', '/metrics'];

type Phase = 'serving' | 'initiated' | 'refusing';

/**
 * kube-apiserver's graceful termination, for one server: once shutdown is initiated the `shutdown` readyz check fails;
 * after the delay, new requests are refused (503 `apiserver is shutting down` with `Retry-After: 1` and the listener
 * closed, or with `sendRetryAfter` kube's 429), watches end cleanly and requests in flight finish, up to the timeout.
 * `filter` is the request filter (outside authentication, as kube's WithRetryAfter and WithWaitGroup); what follows
 * (closing connections, audit, controllers, storage) is the server's close.
 */
export class GracefulShutdown {
  private phase: Phase = 'serving';
  private sendRetryAfter = false;
  /** Responses of requests in flight that are not long-running. */
  private readonly inFlight = new Set<ServerResponse>();
  private readonly drainWaiters = new Set<() => void>();
  /** How each running watch is ended, and its response. */
  private readonly watches = new Map<() => void, ServerResponse>();
  private endingWatches = false;

  /** kube's readyz `shutdown` check (readiness only). */
  readonly readyzCheck: HealthCheck = {
    name: 'shutdown',
    readinessOnly: true,
    check: async () => {
      if (this.phase !== 'serving') throw new Error('process is shutting down');
    },
  };

  /** The signal of one long-running request: its watch handler subscribes how it ends. */
  private watchSignal(res: ServerResponse): ShutdownSignal {
    return {
      subscribe: (end) => {
        if (this.endingWatches) {
          queueMicrotask(end);
          return () => {};
        }
        this.watches.set(end, res);
        return () => this.watches.delete(end);
      },
    };
  }

  readonly filter = async (ctx: Context, next: Next): Promise<void> => {
    if (this.phase === 'refusing' && !isExempt(ctx)) return this.refuse(ctx);
    if (longRunning(ctx)) {
      attachShutdownSignal(ctx, this.watchSignal(ctx.res));
      // A watch ended by the shutdown leaves its connection idle and kept alive: it is closed once the end is sent.
      // (HTTP/1.1 only: an HTTP/2 stream's socket is its whole session's, which the GOAWAY of stopListening ends.)
      const socket = ctx.req.socket;
      if (ctx.req.httpVersionMajor < 2) {
        ctx.res.once('close', () => {
          if (this.phase === 'refusing') lingeringClose(socket);
        });
      }
      return next();
    }
    const res = ctx.res;
    if (this.phase === 'refusing' && !this.sendRetryAfter) res.shouldKeepAlive = false;
    this.inFlight.add(res);
    let streamed = false;
    try {
      await next();
      streamed = ctx.body instanceof Stream;
    } finally {
      // Done when the handler returns, as kube's WithWaitGroup; a body streamed after that (a paced list, a proxied
      // response), when its response closes. (A 'close' listener on every response is a measurable share of a GET.)
      if (streamed) res.once('close', () => this.finished(res));
      else this.finished(res);
    }
  };

  private finished(res: ServerResponse): void {
    this.inFlight.delete(res);
    if (this.inFlight.size === 0 && this.drainWaiters.size > 0) for (const wake of this.drainWaiters) wake();
  }

  /**
   * Runs the shutdown up to the point where every request and connection has ended or the timeout has passed: /readyz
   * fails, the delay passes, then new requests are refused, `stopListening` is called (at once, or with
   * `sendRetryAfter` once the requests in flight are done), watches end and requests in flight finish.
   * `stopListening` resolves when the server's last connection has closed.
   */
  async run(opts: ShutdownOptions, stopListening: () => Promise<void>): Promise<void> {
    if (this.phase !== 'serving') return;
    this.phase = 'initiated';
    if (opts.delayMs) await sleep(opts.delayMs);
    this.sendRetryAfter = opts.sendRetryAfter ?? false;
    this.phase = 'refusing';
    const timers = new AbortController();
    const deadline = sleep(opts.timeoutMs ?? defaultTimeoutMs, undefined, { signal: timers.signal }).catch(() => {});
    let connectionsClosed: Promise<void> | undefined;
    if (!this.sendRetryAfter) {
      // As Go's Server.Shutdown: no more connections, and none kept alive after the answer being written.
      for (const res of this.inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      connectionsClosed = stopListening();
    }
    await Promise.race([Promise.all([this.drained(), this.endWatches(opts.watchTerminationGracePeriodMs ?? 0, timers.signal)]), deadline]);
    // kube then gives the connections left 2 s to close (the time a client has to answer an HTTP/2 GOAWAY).
    if (this.sendRetryAfter) connectionsClosed = Promise.race([stopListening(), sleep(retryAfterCloseMs, undefined, { signal: timers.signal }).catch(() => {})]);
    await Promise.race([connectionsClosed, deadline]);
    timers.abort();
  }

  /** kube's answers to a request that arrives once requests are refused. */
  private refuse(ctx: Context): void {
    if (this.sendRetryAfter) {
      // kube's WithRetryAfter answers with Go's http.Error: plain text, not a Status.
      ctx.status = 429;
      ctx.set('Retry-After', '5');
      if (ctx.req.httpVersionMajor < 2) ctx.set('Connection', 'close'); // HTTP/2 has no such header (its GOAWAY follows)
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Type', 'text/plain; charset=utf-8');
      ctx.body = 'The apiserver is shutting down, please try again later.\n';
      return;
    }
    ctx.res.shouldKeepAlive = false;
    throw new ApiError(503, StatusReason.ServiceUnavailable, 'apiserver is shutting down', undefined, { 'Retry-After': '1' });
  }

  /** Resolves once no request that is not long-running is in flight. */
  private drained(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.drainWaiters.delete(wake);
        resolve();
      };
      this.drainWaiters.add(wake);
    });
  }

  /**
   * Ends every watch: at once without a grace period, else spread over it (at least 200 a second, as kube paces
   * them), so that their clients do not all re-watch in the same instant. Resolves once every ended watch's response
   * has been written out (connections are closed after this: a stream's end must not be cut).
   */
  private async endWatches(graceMs: number, stop: AbortSignal): Promise<void> {
    this.endingWatches = true;
    const watches = [...this.watches];
    this.watches.clear();
    const perSecond = Math.max(minWatchTerminationsPerSecond, (watches.length * 1000) / Math.max(graceMs, 1));
    const gapMs = graceMs > 0 ? 1000 / perSecond : 0;
    const written: Promise<void>[] = [];
    for (const [i, [end, res]] of watches.entries()) {
      if (i > 0 && gapMs > 0 && !stop.aborted) await sleep(gapMs);
      end();
      written.push(responseWritten(res));
    }
    await Promise.all(written);
  }
}

/** Resolves when the response has been handed to its connection in full, or the connection has closed. */
function responseWritten(res: ServerResponse): Promise<void> {
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
  });
}

/** Whether kube treats the request as long-running (from the request info parsed once per request). */
function longRunning(ctx: Context): boolean {
  return isLongRunning(requestInfoOf(ctx));
}

/** Requests served whatever the phase: health, metrics, and kube-apiserver's own loopback requests. */
function isExempt(ctx: Context): boolean {
  return exemptPathPrefixes.some((p) => ctx.path.startsWith(p)) || (ctx.get('user-agent') ?? '').startsWith('kube-apiserver/');
}
