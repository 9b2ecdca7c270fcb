import type { Context } from 'koa';

/**
 * A non-resource HTTP route (discovery, health, OpenAPI, version). `path` is matched exactly, or as a prefix when it
 * ends with `/*`. The handler writes `ctx.body`/`ctx.status` itself or throws an `ApiError`.
 */
export interface ServerRoute {
  readonly path: string;
  /** Defaults to ['GET']. */
  readonly methods?: string[];
  handle(ctx: Context): Promise<void> | void;
}
