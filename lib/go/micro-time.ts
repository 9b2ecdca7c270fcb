/**
 * metav1.MicroTime as JSON: parsed with time.Parse(metav1.RFC3339Micro, …), whose layout wants exactly six fraction
 * digits, and written in UTC with exactly six (what kube stores and answers, whatever offset a client sent).
 */
import { goTimeQuote } from './go-values.js';
import { formatRFC3339, parseRFC3339OrError, type GoTime } from './timestamp.js';

const rfc3339Layout = '2006-01-02T15:04:05Z07:00';
const microLayout = '2006-01-02T15:04:05.000000Z07:00';

/** The text up to and including the seconds, as Go's layout parser consumes it (a one-digit hour is taken). */
const throughSeconds = /^\d{4}-\d\d-\d\dT\d\d?:\d\d:\d\d/;

/** time.Parse(RFC3339Micro, text): the time, or Go's error text. */
export function parseMicroTimeOrError(text: string): GoTime | string {
  const head = throughSeconds.exec(text);
  if (head) {
    const rest = text.slice(head[0].length);
    const cannotParse = (at: string, element: string) => `parsing time ${goTimeQuote(text)} as ${goTimeQuote(microLayout)}: cannot parse ${goTimeQuote(at)} as ${goTimeQuote(element)}`;
    const fraction = /^[.,]\d{6}/.exec(rest);
    if (!fraction) return cannotParse(rest, '.000000');
    const zone = rest.slice(fraction[0].length);
    if (!/^(Z|[+-]\d\d:\d\d)/.test(zone)) return cannotParse(zone, 'Z07:00');
  }
  // Everything else fails (or passes) as the RFC 3339 layout does, named by the micro layout.
  const t = parseRFC3339OrError(text);
  return typeof t === 'string' ? t.replace(goTimeQuote(rfc3339Layout), goTimeQuote(microLayout)) : t;
}

/** A MicroTime value as kube serializes it: UTC, six fraction digits. Undefined when it does not parse. */
export function canonicalMicroTime(text: string): string | undefined {
  const t = parseMicroTimeOrError(text);
  return typeof t === 'string' ? undefined : formatRFC3339({ seconds: t.seconds, nanos: t.nanos, offset: 0 }, 6);
}
