import { namespaceTablePrinter } from './namespace-printer.js';
import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { namespaceFinalizerCauses } from './namespace-validation.js';
import { namespaceGoType } from './namespace-go-type.js';

/** The finalizer kube puts in a Namespace's spec: the namespace controller removes it once the namespace is empty. */
export const namespaceFinalizer = 'kubernetes';

/** Namespaces every cluster starts with; kube refuses to delete them. */
export const systemNamespaces = ['default', 'kube-system', 'kube-public'];

/** The label kube-apiserver keeps on every namespace, its name: what namespaceSelectors select a namespace by. */
export const namespaceNameLabel = 'kubernetes.io/metadata.name';

function labelWithName(obj: KubeObject): void {
  const meta = (obj.metadata ??= {});
  if (meta.name) meta.labels = { ...meta.labels, [namespaceNameLabel]: meta.name };
}

function spec(obj: KubeObject): { finalizers?: string[] } {
  return (obj.spec ?? {}) as { finalizers?: string[] };
}

/** The served Namespace resource, as controllers write it (with the strategies registered for its kind). */
export const namespaceResourceRef = { group: '', resource: 'namespaces' };

/** v1 Namespace: cluster-scoped, named as a DNS label, with its lifecycle in status.phase. */
export function namespaceResource(): ResourceType {
  return {
    group: '',
    names: { plural: 'namespaces', singular: 'namespace', kind: 'Namespace', listKind: 'NamespaceList', shortNames: ['ns'] },
    scope: 'Cluster',
    nameValidation: 'label',
    allowUnconditionalUpdate: true,
    withoutGeneration: true,
    goType: namespaceGoType,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: builtinSchema('namespace.v1'),
        subresources: { status: true, finalize: true },
        tablePrinter: namespaceTablePrinter,
        // kube's Namespace field selectors: metadata.name and status.phase
        selectableFields: [{ jsonPath: '.status.phase' }],
      },
    ],
    strategy: {
      prepareForCreate(obj) {
        const finalizers = spec(obj).finalizers ?? [];
        if (!finalizers.includes(namespaceFinalizer)) finalizers.push(namespaceFinalizer);
        obj.spec = { ...spec(obj), finalizers };
        obj.status = { phase: 'Active' };
        labelWithName(obj);
      },
      prepareForUpdate(obj, old) {
        labelWithName(obj);
        // spec.finalizers only change through /finalize (the namespace controller removes its own there).
        obj.spec = { ...spec(obj), finalizers: spec(old).finalizers };
      },
      prepareForStatusUpdate: labelWithName,
      // Through /finalize the spec (its finalizers) changes; status stays as stored.
      prepareForFinalizeUpdate: labelWithName,
      validate: (obj, _old, subresource) => namespaceFinalizerCauses(obj, subresource),
      extraFinalizers: (obj) => spec(obj).finalizers ?? [],
      prepareForDeletion(obj) {
        obj.status = { ...(obj.status as object), phase: 'Terminating' };
      },
    },
  };
}
