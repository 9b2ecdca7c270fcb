import { createHash } from 'node:crypto';

/** The hash kube uses for discovery and OpenAPI ETags: upper-case hex of the SHA-512 of the serialized document. */
export function contentHash(text: string): string {
  return createHash('sha512').update(text).digest('hex').toUpperCase();
}

/** Whether an If-None-Match header names the (quoted) ETag, or is `*`. */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
