import type { MergeModel } from './merge-strategy.js';

const scalar: MergeModel = { kind: 'scalar' };
const stringMap: MergeModel = { kind: 'map', atomic: false, values: scalar };

/**
 * How ObjectMeta merges (its markers in k8s.io/apimachinery): labels and annotations are granular maps, finalizers a
 * set (patch strategy merge), ownerReferences a map list of atomic items keyed by uid (patch merge key uid). Server-side apply and
 * strategic merge patch use it for every resource's metadata, whatever a CRD schema says about `metadata`.
 */
export const objectMetaModel: MergeModel = {
  kind: 'struct',
  atomic: false,
  fields: {
    name: scalar,
    generateName: scalar,
    namespace: scalar,
    selfLink: scalar,
    uid: scalar,
    resourceVersion: scalar,
    generation: scalar,
    creationTimestamp: scalar,
    deletionTimestamp: scalar,
    deletionGracePeriodSeconds: scalar,
    labels: stringMap,
    annotations: stringMap,
    finalizers: { kind: 'list', listType: 'set', keys: [], items: scalar, patchStrategy: 'merge' },
    ownerReferences: {
      kind: 'list',
      listType: 'map',
      keys: ['uid'],
      patchStrategy: 'merge',
      patchMergeKey: 'uid',
      // metav1.OwnerReference is +structType=atomic: SSA owns an item as `k:{"uid":…}`, not its fields.
      items: {
        kind: 'struct',
        atomic: true,
        fields: { apiVersion: scalar, kind: scalar, name: scalar, uid: scalar, controller: scalar, blockOwnerDeletion: scalar },
      },
    },
    managedFields: { kind: 'list', listType: 'atomic', keys: [], items: { kind: 'deduced' } },
  },
};

/** A resource's model with ObjectMeta's for `metadata` (and apiVersion/kind as scalars). */
export function withObjectMeta(model: MergeModel): MergeModel {
  const fields = model.kind === 'struct' ? model.fields : {};
  const rest = model.kind === 'struct' ? model.rest : model.kind === 'deduced' ? model : undefined;
  const merged: MergeModel = { kind: 'struct', atomic: false, fields: { ...fields, apiVersion: scalar, kind: scalar, metadata: objectMetaModel } };
  return rest ? { ...merged, rest } : merged;
}
