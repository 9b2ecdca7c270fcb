import type { Context, Next } from 'koa';
import { formatGoDuration } from '../../lib/go/duration.js';
import { log } from '../../lib/log/logger.js';

/** kube's httplog writes a line per request from `-v=3` on. */
const requestLogVerbosity = 3;

/**
 * kube's httplog: at `-v=3` one "HTTP" line per request when it ends, with its verb, URI, latency, user agent,
 * Audit-ID, client address and response code, so a line in the log and an audit event can be matched.
 */
export async function logRequests(ctx: Context, next: Next): Promise<void> {
  if (!log.enabled(requestLogVerbosity)) return next();
  const started = process.hrtime.bigint();
  try {
    await next();
  } finally {
    log.v(requestLogVerbosity).info('HTTP', {
      verb: ctx.method,
      URI: ctx.url,
      latency: formatGoDuration(process.hrtime.bigint() - started),
      userAgent: ctx.get('user-agent'),
      'audit-ID': ctx.response.get('Audit-Id'),
      srcIP: `${ctx.req.socket.remoteAddress}:${ctx.req.socket.remotePort}`,
      resp: ctx.status,
    });
  }
}
