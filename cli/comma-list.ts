/** A comma-separated flag value as a list: "a, b" → ['a', 'b']; "" → [] (none). */
export function parseList(text: string): string[] {
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}
