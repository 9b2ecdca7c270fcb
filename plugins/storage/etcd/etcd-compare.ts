import type { ICompare } from 'etcd3';

/**
 * The transaction comparisons kapi uses, built without loading the etcd3 client (its enums are runtime values; kapi
 * loads the client only when etcd storage is used). Numbers are etcd's Compare.CompareTarget/CompareResult.
 */
const target = { version: 0, create: 1, mod: 2 } as const;
const result = { equal: 0, greater: 1 } as const;

/** The key does not exist (etcd compares a missing key's create revision as 0). */
export function absent(key: Buffer): ICompare {
  return { key, target: target.create, result: result.equal, create_revision: 0 };
}

/** The key exists. */
export function present(key: Buffer): ICompare {
  return { key, target: target.create, result: result.greater, create_revision: 0 };
}

/** The key was last modified at `revision`. */
export function modifiedAt(key: Buffer, revision: number): ICompare {
  return { key, target: target.mod, result: result.equal, mod_revision: revision };
}

/** The key has been written `version` times since it was created (0: it does not exist). */
export function versionIs(key: Buffer, version: number): ICompare {
  return { key, target: target.version, result: result.equal, version };
}
