/** Go's time.Duration as text: time.ParseDuration and Duration.String, with nanoseconds held as bigint. */

const second = 1_000_000_000n;
const units: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  'µs': 1000n, // U+00B5 micro sign
  'μs': 1000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: second,
  m: 60n * second,
  h: 3600n * second,
};
const limit = 1n << 63n;
// One `<decimal><unit>` term; the unit is whatever runs up to the next digit or point, as Go reads it.
const term = /(\d*)(?:\.(\d*))?([^\d.]*)/y;

/**
 * time.ParseDuration: `[-+]` then one or more `<decimal><unit>` (units ns, us/µs/μs, ms, s, m, h), or a bare `0`.
 * Nanoseconds, or undefined where Go returns an error (bad syntax, a missing or unknown unit, beyond int64).
 */
export function parseGoDuration(text: string): bigint | undefined {
  const parsed = parseGoDurationOrError(text);
  return typeof parsed === 'bigint' ? parsed : undefined;
}

/** time.ParseDuration with its error: nanoseconds, or Go's error text (`time: unknown unit "x" in duration "5x"`). */
export function parseGoDurationOrError(text: string): bigint | { error: string } {
  const invalid = { error: `time: invalid duration ${goTimeQuote(text)}` };
  let s = text;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return invalid;
  let total = 0n;
  for (let pos = 0; pos < s.length; pos = term.lastIndex) {
    term.lastIndex = pos;
    const [, whole, frac, unitText] = term.exec(s)!;
    if (whole === '' && !frac) return invalid;
    if (BigInt(whole!) > limit) return invalid; // before the unit is read, as Go's leadingInt
    if (unitText === '') return { error: `time: missing unit in duration ${goTimeQuote(text)}` };
    const unit = units[unitText!];
    if (unit === undefined) return { error: `time: unknown unit ${goTimeQuote(unitText!)} in duration ${goTimeQuote(text)}` };
    let v = BigInt(whole!) * unit;
    if (v > limit) return invalid;
    if (frac) v += fractionNanos(frac, unit);
    total += v;
    if (total > limit) return invalid;
  }
  if (!neg && total === limit) return invalid;
  return neg ? -total : total;
}

/**
 * The time package's quote: in double quotes, `"` and `\` escaped, and every byte of a character below space or
 * beyond ASCII written as `\xhh` (of its UTF-8).
 */
function goTimeQuote(s: string): string {
  let out = '"';
  for (const c of s) {
    const code = c.codePointAt(0)!;
    if (code < 0x20 || code >= 0x80) for (const byte of Buffer.from(c, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else out += c === '"' || c === '\\' ? `\\${c}` : c;
  }
  return out + '"';
}

/** Go's `uint64(float64(f) * (float64(unit) / scale))`: digits past int64's reach are dropped, then float64 rounding. */
function fractionNanos(digits: string, unit: bigint): bigint {
  let f = 0n;
  let scale = 1;
  for (const d of digits) {
    if (f > (limit - 1n) / 10n) break;
    const next = f * 10n + BigInt(d);
    if (next > limit) break;
    f = next;
    scale *= 10;
  }
  return BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
}

/** The fraction `frac / 10^digits` as Go prints it: trailing zeros dropped, no point when nothing is left. */
function fraction(frac: bigint, digits: number): string {
  const text = frac.toString().padStart(digits, '0').replace(/0+$/, '');
  return text ? '.' + text : '';
}

/** time.Duration(ns).String(): `1h2m3.5s`, `1.5µs`, `0s`. */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  const u = neg ? -ns : ns;
  let text: string;
  if (u < second) {
    const [unit, digits] = u < 1000n ? ['ns', 0] : u < 1_000_000n ? ['µs', 3] : ['ms', 6];
    const scale = 10n ** BigInt(digits);
    text = `${u / scale}${fraction(u % scale, digits as number)}${unit}`;
  } else {
    const seconds = u / second;
    text = `${seconds % 60n}${fraction(u % second, 9)}s`;
    const minutes = seconds / 60n;
    if (minutes > 0n) {
      text = `${minutes % 60n}m${text}`;
      const hours = minutes / 60n;
      if (hours > 0n) text = `${hours}h${text}`;
    }
  }
  return neg ? '-' + text : text;
}
