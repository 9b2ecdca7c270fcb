import { createHash } from 'node:crypto';

/** kube's discovery storageVersionHash: base64 of the first 8 bytes of sha256("group/version/kind") of the storage version. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}
