/** Bytes V8 gives a value slot (a property or array element) and the header of each object or array, roughly. */
const slotBytes = 16;

/** Matches a code unit V8 cannot store in a one-byte (Latin-1) string. */
const twoByte = /[\u0100-\uffff]/;

/**
 * About how many bytes of memory a decoded object holds: every string as V8 stores it (one byte a character when all
 * are Latin-1, else two — a stored object's UTF-8 size undercounts a mostly-ASCII text with one `€` in it by half),
 * and a slot for every key and value. What the watch cache's history weighs its events by.
 */
export function objectWeight(value: unknown): number {
  if (typeof value === 'string') return slotBytes + (twoByte.test(value) ? 2 * value.length : value.length);
  if (value === null || typeof value !== 'object') return slotBytes;
  let bytes = slotBytes;
  if (Array.isArray(value)) {
    for (const item of value) bytes += objectWeight(item);
    return bytes;
  }
  // Not Object.entries: its arrays are garbage on every write. A decoded object has only own enumerable keys.
  const obj = value as Record<string, unknown>;
  for (const k in obj) bytes += objectWeight(k) + objectWeight(obj[k]);
  return bytes;
}
