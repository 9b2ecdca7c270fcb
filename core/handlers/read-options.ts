import { errors } from '../contracts/api-error.js';
import { goQuote } from '../../lib/go/go-values.js';
import type { ResourceScope } from './request-scope.js';
import type { KubeObject } from '../contracts/resource-type.js';
import { parseLabelSelector, type LabelSelector } from '../../lib/k8s/labels/label-selector.js';
import { LabelSelectorError } from '../../lib/k8s/labels/label-selector-error.js';
import { validateFieldSelector } from '../selectors/field-selector.js';
import { parseFieldSelector, type FieldSelector } from '../../lib/k8s/fields/field-selector.js';
import { FieldSelectorError } from '../../lib/k8s/fields/field-selector-error.js';
import { objectFieldSet } from '../selectors/object-fields.js';

const uint64Max = 2n ** 64n - 1n;

/**
 * `resourceVersion` as kube's storage versioner parses it (strconv.ParseUint(s, 10, 64)): '' or absent → unset,
 * 0 → "any", N → a revision; anything else is kube's 400 "invalid resource version: …", for get, list and watch alike.
 * A revision above 2^53 is Infinity: no store reaches one, and a JS number cannot hold it exactly, so it must never
 * reach storage (see rejectUnreachable); messages print it from the query (requestedResourceVersion).
 */
export function parseResourceVersion(raw: string | null): number | undefined {
  if (raw === null || raw === '') return undefined;
  const why = !/^\d+$/.test(raw) ? 'invalid syntax' : BigInt(raw) > uint64Max ? 'value out of range' : undefined;
  if (why) {
    const parseError = `strconv.ParseUint: parsing ${goQuote(raw)}: ${why}`;
    throw errors.badRequest(`invalid resource version: resourceVersion: Invalid value: ${goQuote(raw)}: ${parseError}`);
  }
  const value = BigInt(raw);
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(value);
}

/** The request's resourceVersion as kube prints the uint64 it parsed (no leading zeros), exact at any size. */
export function requestedResourceVersion(query: URLSearchParams): string {
  return BigInt(query.get('resourceVersion') || '0').toString();
}

/** The fields a field selector may name for this resource. */
export function selectableFields(scope: ResourceScope): string[] {
  const fields = ['metadata.name'];
  if (scope.rt.scope === 'Namespaced') fields.push('metadata.namespace');
  for (const f of scope.versionDef.selectableFields ?? []) fields.push(f.jsonPath.replace(/^\./, ''));
  fields.push(...Object.keys(scope.versionDef.fieldSelectorAttributes ?? {}));
  return fields;
}

/** A predicate for labelSelector/fieldSelector, or undefined when neither is given. */
export function selectorFilter(scope: ResourceScope): ((obj: KubeObject) => boolean) | undefined {
  const labelText = scope.query.get('labelSelector') ?? '';
  const fieldText = scope.query.get('fieldSelector') ?? '';
  if (!labelText && !fieldText) return undefined;
  const labels = parsedLabels(labelText);
  const fields = parsedFields(fieldText);
  const supported = selectableFields(scope);
  validateFieldSelector(fields, supported, scope.rt.names.kind);
  const computed = Object.entries(scope.versionDef.fieldSelectorAttributes ?? {});
  const extraPaths = (scope.versionDef.selectableFields ?? []).map((f) => f.jsonPath);
  const fieldSet = (obj: KubeObject) => {
    const set = objectFieldSet(obj, extraPaths);
    for (const [name, value] of computed) set[name] = value(obj);
    return set;
  };
  return (obj) => labels.matches(obj.metadata?.labels) && (fields.isEmpty() || fields.matches(fieldSet(obj)));
}

/** fieldSelector as kube reads it: what does not parse is a 400 with fields.ParseSelector's text. */
function parsedFields(text: string): FieldSelector {
  try {
    return parseFieldSelector(text);
  } catch (err) {
    if (err instanceof FieldSelectorError) throw errors.badRequest(err.message);
    throw err;
  }
}

/** labelSelector as kube reads it: what does not parse is a 400 with labels.Parse's text. */
function parsedLabels(text: string): LabelSelector {
  try {
    return parseLabelSelector(text);
  } catch (err) {
    if (err instanceof LabelSelectorError) throw errors.badRequest(err.message);
    throw err;
  }
}
