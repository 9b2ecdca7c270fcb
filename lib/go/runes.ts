/**
 * Go's rune view of a JS string: a rune is a Unicode code point (a surrogate pair is one rune, as its UTF-8 encoding
 * is one rune to Go). Both helpers stop early, so a huge text costs no more than the runes asked for.
 */

/** The number of runes of `text`, counting no further than `max + 1`. */
export function runeCount(text: string, max = Infinity): number {
  let n = 0;
  for (const _rune of text) if (++n > max) break;
  return n;
}

/** The first `max` runes of `text` (all of it when shorter). */
export function truncateRunes(text: string, max: number): string {
  if (text.length <= max) return text;
  let n = 0;
  let end = 0;
  for (const rune of text) {
    if (n++ === max) break;
    end += rune.length;
  }
  return text.slice(0, end);
}
