import { errors } from '../errors/api-error.js';

/** A list continuation: the revision the first page was read at and the key to continue after (kube's format). */
export interface ContinueState {
  revision: number;
  /** Key relative to the collection prefix; the next page starts strictly after it. */
  startAfter: string;
}

export function encodeContinue(state: ContinueState): string {
  // kube: {"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}; the NUL makes "start" the first key after it.
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv: state.revision, start: `${state.startAfter}\u0000` });
  return Buffer.from(json).toString('base64url');
}

export function decodeContinue(token: string): ContinueState {
  let parsed: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw errors.badRequest('continue key is not valid: illegal base64 data or JSON');
  }
  if (parsed.v !== 'meta.k8s.io/v1') throw errors.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof parsed.rv !== 'number' || !Number.isInteger(parsed.rv) || parsed.rv <= 0) {
    throw errors.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof parsed.start !== 'string' || !parsed.start.endsWith('\u0000') || parsed.start.includes('/..') || parsed.start.startsWith('/')) {
    throw errors.badRequest('continue key is not valid: encoded start key has an invalid path');
  }
  return { revision: parsed.rv, startAfter: parsed.start.slice(0, -1) };
}
