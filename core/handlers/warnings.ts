import type { Context } from 'koa';

/**
 * Sends warnings to the client as kube does: one `Warning: 299 - "<text>"` header each (RFC 7234 warn-code 299).
 * A warning already sent is not repeated (a write retried after a conflict decodes and admits its object again).
 */
export function addWarnings(ctx: Context, warnings: readonly string[]): void {
  for (const w of warnings) {
    const header = `299 - ${JSON.stringify(w)}`;
    const sent = ctx.response.get('Warning') as string | string[];
    if (sent === header || (Array.isArray(sent) && sent.includes(header))) continue;
    ctx.append('Warning', header);
  }
}
