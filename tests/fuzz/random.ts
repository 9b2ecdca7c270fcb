/** Small helpers over a seeded PRNG (tests/helpers/seeded-random.ts) for the fuzzer's generators. */
export type Rand = () => number;

export const int = (r: Rand, n: number): number => Math.floor(r() * n);
export const chance = (r: Rand, p: number): boolean => r() < p;
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)]!;

export function randomBytes(r: Rand, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = int(r, 256);
  return b;
}

const oddChars = ['a', 'Z', '0', '-', '.', '_', '/', ' ', '\t', '\n', '"', "'", '\\', '%', '&', '=', '?', '#', ':', '*', '~', '$', '{', '}', '[', ']', 'é', 'ß', '日', '💥', '\u0000', '\u001f', '\u007f', '\u200b', '\ufeff', '\ud800'];

/** A short string of ordinary and odd characters (control, unicode, a lone surrogate, JSON and URL punctuation). */
export function oddString(r: Rand, max = 12): string {
  let s = '';
  for (let i = int(r, max + 1); i > 0; i--) s += pick(r, oddChars);
  return s;
}

/** Percent-encodes every byte of the string's UTF-8 but unreserved characters (a lone surrogate becomes U+FFFD). */
export function percentEncode(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}
