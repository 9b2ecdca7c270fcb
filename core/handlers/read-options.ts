import { errors } from '../errors/api-error.js';
import type { RequestScope } from './request-scope.js';
import type { KubeObject } from '../registry/resource-type.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import { parseFieldSelector, validateFieldSelector } from '../selectors/field-selector.js';
import { objectFieldSet } from '../selectors/object-fields.js';

/** Parses `resourceVersion` ('' = most recent, '0' = any, N = a revision). */
export function parseResourceVersion(raw: string | null): number | undefined {
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw errors.badRequest(`invalid resource version: ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** The fields a field selector may name for this resource. */
export function selectableFields(scope: RequestScope): string[] {
  const fields = ['metadata.name'];
  if (scope.rt.scope === 'Namespaced') fields.push('metadata.namespace');
  if (!scope.rt.custom && scope.rt.names.plural === 'namespaces') fields.push('status.phase');
  for (const f of scope.versionDef.selectableFields ?? []) fields.push(f.jsonPath.replace(/^\./, ''));
  return fields;
}

/** A predicate for labelSelector/fieldSelector, or undefined when neither is given. */
export function selectorFilter(scope: RequestScope): ((obj: KubeObject) => boolean) | undefined {
  const labelText = scope.query.get('labelSelector') ?? '';
  const fieldText = scope.query.get('fieldSelector') ?? '';
  if (!labelText && !fieldText) return undefined;
  const labels = parseLabelSelector(labelText);
  const fields = parseFieldSelector(fieldText);
  const supported = selectableFields(scope);
  validateFieldSelector(fields, supported, scope.rt.names.kind);
  const extraPaths = supported.filter((f) => !f.startsWith('metadata.')).map((f) => `.${f}`);
  return (obj) => labels.matches(obj.metadata?.labels) && (fields.isEmpty() || fields.matches(objectFieldSet(obj, extraPaths)));
}
