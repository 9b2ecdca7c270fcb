import type { Context } from 'koa';
import type { UserInfo } from '../../contracts/authenticator.js';
import type { FlowControlStats } from '../../contracts/flowcontrol.js';
import type { RequestInfo } from '../../request/request-info.js';
import { answerPlainText } from '../plain-text-answer.js';

/**
 * The filter between impersonation and authorization that bounds how much the server does at once: priority and
 * fairness, or max-in-flight. `serve` runs `handler` when the request's turn comes, or answers 429 itself.
 */
export interface RequestLimiter extends FlowControlStats {
  serve(ctx: Context, info: RequestInfo, query: URLSearchParams, user: UserInfo, handler: () => Promise<void>): Promise<void>;
}

/** kube's answer to a request refused for load (its tooManyRequests: plain text, not a Status). */
export function answerTooManyRequests(ctx: Context, retryAfterSeconds: number): void {
  ctx.set('Retry-After', String(retryAfterSeconds));
  answerPlainText(ctx, 429, 'Too many requests, please try again later.');
}

/**
 * Resolves when the response's headers are written or the response ends, whichever comes first: when a watch has
 * started and gives its seat back.
 */
export function responseStarted(ctx: Context): Promise<void> {
  const res = ctx.res;
  if (res.headersSent) return Promise.resolve();
  return new Promise((resolve) => {
    const writeHead = res.writeHead;
    // Node reports no event as the headers go out: the response's own writeHead tells, once
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      res.writeHead = writeHead;
      resolve();
      return writeHead.apply(this, args);
    } as typeof writeHead;
    res.once('close', () => resolve());
  });
}
