import type { Compare } from './grpc/etcd-messages.js';

/** The key does not exist (etcd compares a missing key's create revision as 0). */
export function absent(key: Buffer): Compare {
  return { key, target: 'create', result: 'equal', value: 0 };
}

/** The key exists. */
export function present(key: Buffer): Compare {
  return { key, target: 'create', result: 'greater', value: 0 };
}

/** The key was last modified at `revision`. */
export function modifiedAt(key: Buffer, revision: number): Compare {
  return { key, target: 'mod', result: 'equal', value: revision };
}

/** The key has been written `version` times since it was created (0: it does not exist). */
export function versionIs(key: Buffer, version: number): Compare {
  return { key, target: 'version', result: 'equal', value: version };
}
