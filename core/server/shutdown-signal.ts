import type { Context } from 'koa';

/**
 * kube's ServerShutdownSignal: how a server that stops taking requests tells its long-running ones (watches) to end,
 * so that they end cleanly (the stream's proper end) and clients re-watch elsewhere rather than see a cut connection.
 */
export interface ShutdownSignal {
  /** Calls `end` when the request is to end (soon, when that time has come already); returns the unsubscription. */
  subscribe(end: () => void): () => void;
}

const signalKey = Symbol('kapi.serverShutdownSignal');

/** Gives a long-running request the signal (kube's WithServerShutdownSignal on the request's context). */
export function attachShutdownSignal(ctx: Context, signal: ShutdownSignal): void {
  (ctx.state as Record<symbol, unknown>)[signalKey] = signal;
}

/** Calls `end` when the server ends the request; returns the unsubscription (a no-op when no signal is attached). */
export function onServerShutdown(ctx: Context, end: () => void): () => void {
  const signal = (ctx.state as Record<symbol, ShutdownSignal | undefined>)[signalKey];
  return signal ? signal.subscribe(end) : () => {};
}
