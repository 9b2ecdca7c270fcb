import { isDeepStrictEqual } from 'node:util';

/** `spec.items[0].name` / `spec.labels[app]` → ['spec', 'items', '0', 'name'] / ['spec', 'labels', 'app']. */
function pathSegments(field: string): string[] | undefined {
  const out: string[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(field))) out.push(m[1] ?? m[2]);
  return out.length ? out : undefined;
}

function valueAt(obj: unknown, segments: string[]): unknown {
  let v = obj;
  for (const s of segments) {
    if (v === null || typeof v !== 'object') return undefined;
    v = Array.isArray(v) ? v[Number(s)] : (v as Record<string, unknown>)[s];
  }
  return v;
}

/**
 * Validation ratcheting (kube 1.33, CRDValidationRatcheting): on update, a schema error about a value the update did
 * not change is not reported, so objects stored under an older, looser schema stay updatable. Errors about the
 * whole object (no field path) are always kept.
 */
export function ratchet<Cause extends { field?: string }>(causes: Cause[], obj: unknown, old: unknown): Cause[] {
  return causes.filter((c) => {
    const segments = c.field && c.field !== '<nil>' ? pathSegments(c.field) : undefined;
    if (!segments) return true;
    return !isDeepStrictEqual(valueAt(obj, segments), valueAt(old, segments));
  });
}
