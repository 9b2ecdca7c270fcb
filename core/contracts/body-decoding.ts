import { ApiError, errors } from './api-error.js';
import type { Codec, TypeMeta } from './codec.js';

/** Deeper bodies are refused before any recursive code (merge, compare, validate) sees them. */
export const maxBodyDepth = 1000;

/** The media type without parameters, lower-cased. */
export function baseMediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Decodes a request body with a codec and refuses nesting deeper than maxBodyDepth, whatever the format. Every
 * failure is a 400 Status: a codec that throws anything but an ApiError (or overflows the stack) is a malformed body.
 */
export function decodeBody(codec: Codec, raw: Buffer, expected: TypeMeta): unknown {
  let value: unknown;
  try {
    value = codec.decode(raw, expected);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw errors.badRequest(`the object provided is unrecognized or malformed: ${err instanceof Error ? err.message : String(err)}`);
  }
  checkStructure(value);
  return value;
}

/**
 * Iterative walk (a recursive one would itself overflow on hostile input) refusing bodies nested too deep, and keys
 * named `__proto__`: JavaScript code that sets such a key by assignment changes an object's prototype instead, so the
 * field would silently vanish on some paths and not on others. kapi refuses it whole rather than risk that.
 */
function checkStructure(value: unknown): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxBodyDepth) throw errors.badRequest(`the object provided is unrecognized or malformed: nesting exceeds the maximum depth of ${maxBodyDepth}`);
    if (Object.hasOwn(v, '__proto__')) throw errors.badRequest('the object provided is unrecognized or malformed: the field name "__proto__" is not supported');
    for (const child of Object.values(v as object)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
}
