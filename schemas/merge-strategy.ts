import type { JSONSchemaProps } from '../lib/openapi/json-schema-props.js';

/**
 * How values of a schema node merge, as sigs.k8s.io/structured-merge-diff models a CRD schema: the model Server-Side
 * Apply and strategic merge patch work from.
 * - `struct`: an object with declared fields; `atomic` when `x-kubernetes-map-type: atomic` (replaced whole).
 * - `map`: an object whose values share one schema (`additionalProperties`).
 * - `list`: `atomic` (the default), `set` (scalars merged by value) or `map` (objects merged by `keys`);
 *   `patchMergeKey`/`patchStrategy` come from the `x-kubernetes-patch-*` markers when present.
 * - `scalar`; `deduced` for subtrees without a schema (preserve-unknown-fields, int-or-string): merged by shape.
 */
export type MergeModel =
  | { kind: 'scalar' }
  | { kind: 'deduced' }
  | { kind: 'struct'; atomic: boolean; fields: Record<string, MergeModel>; rest?: MergeModel }
  | { kind: 'map'; atomic: boolean; values: MergeModel }
  | { kind: 'list'; listType: 'atomic' | 'set' | 'map'; keys: string[]; items: MergeModel; patchStrategy?: string; patchMergeKey?: string };

/** Builds the merge model of a structural schema. */
export function mergeModel(s: JSONSchemaProps): MergeModel {
  if (s['x-kubernetes-int-or-string']) return { kind: 'deduced' };
  if (s.type === 'array') {
    const listType = s['x-kubernetes-list-type'] ?? 'atomic';
    const model: MergeModel = {
      kind: 'list',
      listType,
      keys: listType === 'map' ? (s['x-kubernetes-list-map-keys'] ?? []) : [],
      items: s.items ? mergeModel(s.items) : { kind: 'deduced' },
    };
    const strategy = s['x-kubernetes-patch-strategy'];
    const mergeKey = s['x-kubernetes-patch-merge-key'];
    if (typeof strategy === 'string') model.patchStrategy = strategy;
    if (typeof mergeKey === 'string') model.patchMergeKey = mergeKey;
    return model;
  }
  if (s.type === 'object' || s.properties || s.additionalProperties) {
    const atomic = s['x-kubernetes-map-type'] === 'atomic';
    const extra = typeof s.additionalProperties === 'object' ? mergeModel(s.additionalProperties) : undefined;
    if (!s.properties && extra) return { kind: 'map', atomic, values: extra };
    if (!s.properties && s['x-kubernetes-preserve-unknown-fields']) return { kind: 'deduced' };
    const fields: Record<string, MergeModel> = {};
    for (const [name, prop] of Object.entries(s.properties ?? {})) fields[name] = mergeModel(prop);
    const rest = extra ?? (s['x-kubernetes-preserve-unknown-fields'] ? { kind: 'deduced' as const } : undefined);
    return rest ? { kind: 'struct', atomic, fields, rest } : { kind: 'struct', atomic, fields };
  }
  if (s['x-kubernetes-preserve-unknown-fields'] || !s.type) return { kind: 'deduced' };
  return { kind: 'scalar' };
}
