/**
 * The Go renderings kube's selector errors are built from, so messages match byte for byte:
 * `%q` (strconv.Quote) and `encoding/json` for string slices.
 */

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const shortEscapes: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** A string as Go's `%q` prints it: printable runes kept, others escaped (`\x01`, `\u00a0`, `\U0001f600`). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (printable.test(ch)) out += ch;
    else if (shortEscapes[cp]) out += shortEscapes[cp];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}

/** A string slice as Go's json.Marshal writes it (HTML-safe escapes included). */
export function goJson(values: readonly string[]): string {
  return JSON.stringify(values).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}
