/**
 * Fields no manager owns:
 * - type and object metadata kube strips from every manager's set (fieldmanager stripMetaManager), member-wise:
 *   `metadata` itself is stripped but not `metadata.labels.*`;
 * - an endpoint's reset fields (ResetFieldsStrategy), excluded with everything under them.
 */
import { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { fieldElement } from '../../schemas/structured-merge/path-element.js';

export const STRIPPED_FIELDS: FieldSet = FieldSet.of(
  ['f:apiVersion'],
  ['f:kind'],
  ['f:metadata'],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => ['f:metadata', fieldElement(f)]),
);

const resetSets = new WeakMap<readonly string[], FieldSet>();

/** The reset fields as a set: dotted paths of field names (`status`, `spec`, `metadata.labels`). */
export function resetFieldSet(paths: readonly string[]): FieldSet {
  if (paths.length === 0) return FieldSet.EMPTY;
  let s = resetSets.get(paths);
  if (!s) resetSets.set(paths, (s = FieldSet.of(...paths.map((p) => p.split('.').map(fieldElement)))));
  return s;
}
