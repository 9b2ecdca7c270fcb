import type { RouteContext } from '../contracts/route.js';

/** kube's warning under every zpage's title. */
const warning = 'Warning: This endpoint is not meant to be machine parseable, has no formatting compatibility guarantees and is for debugging purposes only.';

/** kube picks one of these between a zpage's names and values at random, so that no one scrapes it as an API. */
const delimiters = [':', ': ', '=', ' '];

export function randomDelimiter(): string {
  return delimiters[Math.floor(Math.random() * delimiters.length)]!;
}

/** A zpage's title block: a blank line, "<component> <page>", the warning. */
export function zpageHeader(title: string): string {
  return `\n${title}\n${warning}\n`;
}

/**
 * Answers a zpage in text/plain, the one form kube serves it in: when Accept is absent (as kube 1.35 does; earlier
 * versions answered 406) or admits text/plain with no parameter but charset=utf-8; otherwise 406 with kube's plain
 * text error (http.Error), not a Status.
 */
export function sendZpage(ctx: RouteContext, body: () => string): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Type', 'text/plain; charset=utf-8');
  if (!acceptsPlainText(ctx.get('accept'))) {
    ctx.status = 406;
    ctx.body = 'media type not acceptable, must be: text/plain\n';
    return;
  }
  ctx.status = 200;
  ctx.body = body();
}

/** kube's check (component-base zpages/httputil): text/plain or a wildcard covering it, with no parameter but charset=utf-8. */
function acceptsPlainText(accept: string): boolean {
  if (accept.trim() === '') return true;
  return accept.split(',').some((part) => {
    const [range = '', ...rawParams] = part.split(';').map((s) => s.trim());
    const [type, subtype] = range === '*' ? ['*', '*'] : range.split('/');
    if ((type !== 'text' && type !== '*') || (subtype !== 'plain' && subtype !== '*')) return false;
    const params = rawParams.filter((p) => p !== '' && !/^q=/i.test(p));
    return params.length === 0 || (params.length === 1 && /^charset=utf-8$/i.test(params[0]!.replace(/\s*=\s*/, '=')));
  });
}
