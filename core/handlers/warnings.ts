import type { Context } from 'koa';

/** Sends warnings to the client as kube does: one `Warning: 299 - "<text>"` header each (RFC 7234 warn-code 299). */
export function addWarnings(ctx: Context, warnings: readonly string[]): void {
  for (const w of warnings) ctx.append('Warning', `299 - ${JSON.stringify(w)}`);
}
