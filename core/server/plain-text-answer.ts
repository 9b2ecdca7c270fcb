import type { Context } from 'koa';

/**
 * Go's http.Error, as kube answers from filters that write no Status (the aggregator's own failures, a request
 * refused for too many in flight): the text and a newline, as text/plain.
 */
export function answerPlainText(ctx: Context, code: number, message: string): void {
  ctx.status = code;
  ctx.body = `${message}\n`;
  ctx.set('Content-Type', 'text/plain; charset=utf-8');
  ctx.set('X-Content-Type-Options', 'nosniff');
}
