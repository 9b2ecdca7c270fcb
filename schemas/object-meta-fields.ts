/**
 * Unknown fields in a resource's ObjectMeta, as kube-apiserver finds them when it decodes a custom resource's
 * metadata strictly into metav1.ObjectMeta (apiextensions-apiserver schema/objectmeta GetObjectMetaWithOptions):
 * reported as `metadata.<path>` and dropped.
 */

const OBJECT_META = new Set([
  'annotations',
  'creationTimestamp',
  'deletionGracePeriodSeconds',
  'deletionTimestamp',
  'finalizers',
  'generateName',
  'generation',
  'labels',
  'managedFields',
  'name',
  'namespace',
  'ownerReferences',
  'resourceVersion',
  'selfLink',
  'uid',
]);
const OWNER_REFERENCE = new Set(['apiVersion', 'blockOwnerDeletion', 'controller', 'kind', 'name', 'uid']);
const MANAGED_FIELDS_ENTRY = new Set(['apiVersion', 'fieldsType', 'fieldsV1', 'manager', 'operation', 'subresource', 'time']);

type JSONObject = Record<string, unknown>;

function isObject(x: unknown): x is JSONObject {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function sortedKeys(o: JSONObject): string[] {
  return Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function pruneKeys(o: unknown, known: Set<string>, path: string, unknown: string[]): void {
  if (!isObject(o)) return;
  for (const k of sortedKeys(o)) {
    if (known.has(k)) continue;
    unknown.push(`${path}.${k}`);
    delete o[k];
  }
}

/**
 * Removes the fields ObjectMeta does not have from `metadata` (also inside ownerReferences and managedFields
 * entries), in place, and returns their paths in the order kube reports them (`metadata.foo`,
 * `metadata.ownerReferences[0].bar`).
 */
export function pruneUnknownObjectMetaFields(metadata: unknown, prefix = 'metadata'): string[] {
  if (!isObject(metadata)) return [];
  const unknown: string[] = [];
  for (const k of sortedKeys(metadata)) {
    if (!OBJECT_META.has(k)) {
      unknown.push(`${prefix}.${k}`);
      delete metadata[k];
      continue;
    }
    const v = metadata[k];
    if (k === 'ownerReferences' && Array.isArray(v)) {
      v.forEach((ref, i) => pruneKeys(ref, OWNER_REFERENCE, `${prefix}.ownerReferences[${i}]`, unknown));
    } else if (k === 'managedFields' && Array.isArray(v)) {
      v.forEach((entry, i) => pruneKeys(entry, MANAGED_FIELDS_ENTRY, `${prefix}.managedFields[${i}]`, unknown));
    }
  }
  return unknown;
}
