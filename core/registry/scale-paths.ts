import { goV, isGoInt } from '../../lib/go/go-values.js';

/**
 * The fields a CRD's scale subresource names (`.spec.replicas`, `.status.selector`): simple dotted paths into a
 * custom resource, read as apimachinery's unstructured.NestedInt64 / NestedString read them.
 */

/** Split once per path: a CRD's few scale paths are read on every write of its objects. */
const segmentsOf = new Map<string, readonly string[]>();

/** `.spec.replicas` → ['spec', 'replicas']. */
function segments(path: string): readonly string[] {
  let parts = segmentsOf.get(path);
  if (!parts) segmentsOf.set(path, (parts = path.replace(/^\./, '').split('.')));
  return parts;
}

/** What a path leads to: its value (undefined when absent), or the accessor error kube reports for it. */
export interface NestedField {
  value: unknown;
  error?: string;
}

/** Go's %T of a decoded JSON value. */
function goType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return isGoInt(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return v === null ? '<nil>' : 'map[string]interface {}';
}

function readNested(obj: unknown, path: string, expected: string, matches: (v: unknown) => boolean): NestedField {
  const parts = segments(path);
  let v: unknown = obj;
  for (let i = 0; i < parts.length; i++) {
    if (v === null) return { value: undefined };
    if (typeof v !== 'object' || Array.isArray(v)) {
      const at = `.${parts.slice(0, i + 1).join('.')}`;
      return { value: undefined, error: `${at} accessor error: ${goV(v)} is of the type ${goType(v)}, expected map[string]interface{}` };
    }
    if (!Object.hasOwn(v, parts[i]!)) return { value: undefined };
    v = (v as Record<string, unknown>)[parts[i]!];
  }
  if (!matches(v)) return { value: undefined, error: `.${parts.join('.')} accessor error: ${goV(v)} is of the type ${goType(v)}, expected ${expected}` };
  return { value: v };
}

/** An integer field (replicas). */
export function nestedInt64(obj: unknown, path: string): NestedField {
  return readNested(obj, path, 'int64', (v) => typeof v === 'number' && isGoInt(v));
}

/** A string field (the label selector). */
export function nestedString(obj: unknown, path: string): NestedField {
  return readNested(obj, path, 'string', (v) => typeof v === 'string');
}

/** Sets a field, creating the objects on its way (unstructured.SetNestedField). */
export function setNested(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = segments(path);
  let o = obj;
  for (const s of parts.slice(0, -1)) {
    if (o[s] === null || typeof o[s] !== 'object' || Array.isArray(o[s])) o[s] = {};
    o = o[s] as Record<string, unknown>;
  }
  o[parts[parts.length - 1]!] = value;
}
