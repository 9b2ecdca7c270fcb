import { truncateRunes } from '../../lib/go/runes.js';
import type { StatusCause } from './status.js';

/**
 * kapi's bounds on what an error answer lists (kube has none and can answer Statuses of tens of MB): at most
 * MAX_LISTED items (causes, or the parts of a message), each field path and message cut to MAX_TEXT_RUNES runes, and
 * no more than LISTED_BYTES of them as JSON; what is left out is counted in one last item, `and N more errors`. A
 * Status lists its causes twice (in details and in the message), so it stays well under 1 MiB.
 */
export const MAX_LISTED = 100;
export const MAX_TEXT_RUNES = 4096;
const LISTED_BYTES = 384 * 1024;

/** The text of the last item of a list that was cut. */
export function moreErrors(count: number): string {
  return `and ${count} more error${count === 1 ? '' : 's'}`;
}

/** `text`, cut to MAX_TEXT_RUNES runes and then marked with `...`. */
export function shortText(text: string): string {
  const cut = truncateRunes(text, MAX_TEXT_RUNES);
  return cut.length < text.length ? `${cut}...` : text;
}

function bounded<T>(items: readonly T[], shorten: (item: T) => T, more: (count: number) => T): T[] {
  const listed: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (listed.length === MAX_LISTED) break;
    const short = shorten(item);
    const size = Buffer.byteLength(JSON.stringify(short));
    if (bytes + size > LISTED_BYTES) break;
    bytes += size;
    listed.push(short);
  }
  const left = items.length - listed.length;
  return left ? [...listed, more(left)] : listed;
}

/** The causes a Status lists: all of them when within the bounds above. */
export function boundedCauses(causes: readonly StatusCause[]): StatusCause[] {
  const shorten = (c: StatusCause): StatusCause => ({
    ...c,
    ...(c.field !== undefined ? { field: shortText(c.field) } : {}),
    ...(c.message !== undefined ? { message: shortText(c.message) } : {}),
  });
  return bounded(causes, shorten, (count) => ({ message: moreErrors(count) }));
}

/** The parts of a message that lists problems (`a, b, and 3 more errors`): all of them when within the bounds. */
export function boundedTexts(texts: readonly string[]): string[] {
  return bounded(texts, shortText, moreErrors);
}
