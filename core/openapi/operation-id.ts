/**
 * kube-openapi's ToValidOperationID: drops characters that cannot appear in an identifier and capitalizes the letter
 * after each dropped one (`example.com` → `ExampleCom` or `exampleCom`).
 */
export function toOperationId(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  for (const [i, ch] of [...s].entries()) {
    if (/\p{L}|_/u.test(ch) || (i > 0 && /\p{Nd}/u.test(ch))) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else {
      capitalize = true;
    }
  }
  return out;
}

/** The group part of operation IDs and tags: `core` for the core group, without a `.k8s.io` suffix. */
export function groupPart(group: string): string {
  return group ? group.replace(/\.k8s\.io$/, '') : 'core';
}
