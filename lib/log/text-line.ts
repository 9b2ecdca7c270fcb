/** The one-letter severity klog starts a line with. */
const severities: Record<string, string> = { error: 'E', warn: 'W', info: 'I' };

/**
 * A pino JSON line as klog's text: `I1127 14:17:16.123456] "message" key="value"`, an error's stack on the lines
 * after. Keys that are pino's own (level, ts, msg) and info's `v` are not repeated as key-values.
 */
export function formatTextLine(json: string): string {
  const { level, ts, msg, v: _v, err, ...fields } = JSON.parse(json) as Record<string, unknown>;
  const pairs = Object.entries(fields).map(([k, value]) => ` ${k}=${JSON.stringify(value)}`);
  const error = err as { message?: string; stack?: string } | undefined;
  if (error) pairs.push(` err=${JSON.stringify(error.message ?? String(err))}`);
  const stack = error?.stack ? `\n${error.stack}` : '';
  return `${severities[String(level)] ?? 'I'}${klogTime(Number(ts))}] ${JSON.stringify(msg ?? '')}${pairs.join('')}${stack}\n`;
}

/** klog's header time: `mmdd hh:mm:ss.uuuuuu` in UTC. */
function klogTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  const micros = String(Math.round((seconds % 1) * 1e6) % 1e6).padStart(6, '0');
  return `${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${micros}`;
}
