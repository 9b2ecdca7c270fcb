import type { IncomingMessage } from 'node:http';

/**
 * What a route sees of its request and sets of its answer: the part of the server's (koa's) request context that
 * routes use, declared here so that the public contract needs no koa types.
 */
export interface RouteContext {
  readonly method: string;
  /** The URL path, without the query. */
  readonly path: string;
  /** The query, without its `?`. */
  readonly querystring: string;
  /** The Host header. */
  readonly host: string;
  /** The Node request, e.g. to read a body. */
  readonly req: IncomingMessage;
  /** A request header ('' when absent). */
  get(field: string): string;
  /** Sets a response header. */
  set(field: string, value: string): void;
  /** Adds a value to a response header. */
  append(field: string, value: string): void;
  /** Redirects to `url`: 302 unless `status` is set to another 3xx afterwards. */
  redirect(url: string): void;
  status: number;
  /** The response body: a string, Buffer or readable stream is sent as it is, another object as JSON, null sends none. */
  body: unknown;
}

/**
 * A non-resource HTTP route (discovery, health, OpenAPI, version). `path` is matched exactly, or as a prefix when it
 * ends with `/*`. The handler sets `ctx.body`/`ctx.status` itself or throws an `ApiError`.
 */
export interface ServerRoute {
  readonly path: string;
  /** Defaults to ['GET']. */
  readonly methods?: string[];
  handle(ctx: RouteContext): Promise<void> | void;
}
