/**
 * Exact decimal digits of a double, as Go's strconv computes them: the shared core of `string.format`'s `%f` and
 * `%e` (both the current formatting and cel-go v0.22's, see ext-format-legacy.ts).
 */

/** |x| * 10^p rounded half-to-even to an integer (exact, on the binary value, as Go's strconv does). */
export function scaledRound(x: number, p: number): bigint {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, Math.abs(x));
  const bits = dv.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let exp: number;
  if (e === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = e - 1075;
  }
  let num = mant;
  let den = 1n;
  if (exp >= 0) num <<= BigInt(exp);
  else den <<= BigInt(-exp);
  if (p >= 0) num *= 10n ** BigInt(p);
  else den *= 10n ** BigInt(-p);
  const q = num / den;
  const r2 = (num % den) * 2n;
  return r2 > den || (r2 === den && q % 2n === 1n) ? q + 1n : q;
}

/**
 * The `%.{p}e` digits of a finite, non-zero x: its decimal exponent `k` and its p+1 significant digits `q`
 * (x ≈ q × 10^(k-p)), rounded half-to-even.
 */
export function scientificDigits(x: number, p: number): { k: number; q: bigint } {
  let k = Math.floor(Math.log10(Math.abs(x)));
  let q = scaledRound(x, p - k);
  const lim = 10n ** BigInt(p + 1);
  if (q >= lim) {
    k++;
    q = scaledRound(x, p - k);
  } else if (q < lim / 10n) {
    k--;
    q = scaledRound(x, p - k);
  }
  return { k, q };
}

/** `NaN`, `{infinity}` or `-{infinity}` for a non-finite x; undefined for a finite one. */
export function nonFiniteText(x: number, infinity: string): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return infinity;
  if (x === -Infinity) return '-' + infinity;
  return undefined;
}

/** Go's fmt `%.{p}f` of a finite x (no grouping; `-0` keeps its sign). */
export function fixedFinite(x: number, p: number): string {
  const digits = scaledRound(x, p).toString().padStart(p + 1, '0');
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  return sign + (p ? `${digits.slice(0, -p)}.${digits.slice(-p)}` : digits);
}
