/**
 * Key helpers shared by the embedded storage engines.
 *
 * The storage contract orders keys by their UTF-8 bytes (etcd and SQLite's BINARY collation both do). UTF-8 byte order
 * equals Unicode code point order, which differs from JavaScript's UTF-16 code unit order (`<`) only when one side of
 * the first difference is a surrogate (a code point >= U+10000) and the other is in U+E000..U+FFFF.
 */

/** Rank a UTF-16 code unit so that comparing ranks gives code point order. */
function rank(unit: number): number {
  if (unit < 0xd800) return unit;
  // Surrogates (D800-DFFF) encode code points >= 0x10000: move them above E000-FFFF.
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

/** Compare two keys in UTF-8 byte order. Negative when `a` sorts first, 0 when equal, positive otherwise. */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** True when `key` starts with `prefix`. */
export function hasPrefix(key: string, prefix: string): boolean {
  return prefix === '' || key.startsWith(prefix);
}

/**
 * The smallest key greater than every key that starts with `prefix` (etcd's "range end" for a prefix), or `undefined`
 * when there is no upper bound (empty prefix, or a prefix made only of U+10FFFF). Keys under `prefix` are exactly the
 * keys `k` with `prefix <= k < prefixEnd(prefix)`.
 */
export function prefixEnd(prefix: string): string | undefined {
  let rest = prefix;
  while (rest.length > 0) {
    const last = rest.codePointAt(rest.length - 1)!;
    // A trailing low surrogate belongs to a pair: step back to the pair's start.
    let start = rest.length - 1;
    let cp = last;
    if (last >= 0xdc00 && last <= 0xdfff && start > 0) {
      const pair = rest.codePointAt(start - 1)!;
      if (pair >= 0x10000) {
        start -= 1;
        cp = pair;
      }
    }
    rest = rest.slice(0, start);
    if (cp === 0x10ffff) continue;
    let next = cp + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    return rest + String.fromCodePoint(next);
  }
  return undefined;
}

/** Index of the first element of sorted `keys` that is >= `key` (or > `key` when `exclusive`). */
export function lowerBound(keys: readonly string[], key: string, exclusive = false): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareKeys(keys[mid]!, key);
    if (c < 0 || (exclusive && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Insert `key` into sorted `keys` if absent. */
export function sortedInsert(keys: string[], key: string): void {
  const i = lowerBound(keys, key);
  if (keys[i] !== key) keys.splice(i, 0, key);
}

/** Remove `key` from sorted `keys` if present. */
export function sortedRemove(keys: string[], key: string): void {
  const i = lowerBound(keys, key);
  if (keys[i] === key) keys.splice(i, 1);
}

/**
 * The half-open index range `[from, to)` of sorted `keys` that lie under `prefix` and are strictly after
 * `startAfterKey` (when given).
 */
export function prefixSlice(keys: readonly string[], prefix: string, startAfterKey?: string): [number, number] {
  const from =
    startAfterKey !== undefined && compareKeys(startAfterKey, prefix) >= 0
      ? lowerBound(keys, startAfterKey, true)
      : lowerBound(keys, prefix);
  const end = prefixEnd(prefix);
  const to = end === undefined ? keys.length : lowerBound(keys, end);
  return [from, to < from ? from : to];
}
