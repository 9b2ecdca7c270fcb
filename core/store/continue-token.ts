import { errors } from '../contracts/api-error.js';

/** A list continuation: the revision the first page was read at and the key to continue after (kube's format). */
export interface ContinueState {
  /** The snapshot to read; -1: the latest (a token handed out after the snapshot was compacted). */
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
    throw invalid('continue key is not valid: illegal base64 data or JSON');
  }
  if (parsed.v !== 'meta.k8s.io/v1') throw invalid('continue key is not valid: server does not recognize this encoded key');
  // Past 2^53 a JSON number is inexact (and beyond any store's revisions): it must not reach storage.
  if (typeof parsed.rv !== 'number' || !Number.isSafeInteger(parsed.rv) || parsed.rv === 0 || parsed.rv < -1) {
    throw invalid('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof parsed.start !== 'string' || parsed.start === '') throw invalid('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  if (!parsed.start.endsWith('\u0000') || parsed.start.includes('/..') || parsed.start.startsWith('/')) {
    throw invalid('continue key is not valid: encoded start key has an invalid path');
  }
  return { revision: parsed.rv, startAfter: parsed.start.slice(0, -1) };
}

function invalid(detail: string) {
  return errors.badRequest(`invalid continue token: ${detail}`);
}

/**
 * The 410 for a continue token whose snapshot was compacted. Like kube, it carries a fresh token (in the Status's
 * metadata.continue) that continues after the same key at the latest revision, for clients that accept an
 * inconsistent list.
 */
export function continueExpired(startAfter: string) {
  const err = errors.expired(
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
  );
  err.status.metadata = { continue: encodeContinue({ revision: -1, startAfter }) };
  return err;
}
