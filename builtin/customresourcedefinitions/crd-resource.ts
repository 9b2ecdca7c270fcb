import type { ResourceType } from '../../core/contracts/resource-type.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import type { Crd } from './crd-types.js';
import { validateCrd } from './crd-validation.js';
import { crdGoType } from './crd-go-type.js';

/** The finalizer that holds a deleted CRD until all its custom resources are gone. */
export const crdCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

function storageVersionName(crd: Crd): string | undefined {
  return crd.spec?.versions?.find((v) => v.storage)?.name;
}

/** The served CRD resource, as controllers write it (with the strategies registered for its kind). */
export const crdResourceRef = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };

/** apiextensions.k8s.io/v1 CustomResourceDefinition. Names and conditions are set by the CRD controller. */
export function crdResource(): ResourceType {
  return {
    group: 'apiextensions.k8s.io',
    names: {
      plural: 'customresourcedefinitions',
      singular: 'customresourcedefinition',
      kind: 'CustomResourceDefinition',
      listKind: 'CustomResourceDefinitionList',
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
    },
    scope: 'Cluster',
    allowUnconditionalUpdate: false,
    goType: crdGoType,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: builtinSchema('customresourcedefinition.v1'),
        subresources: { status: true },
      },
    ],
    strategy: {
      prepareForCreate(obj) {
        const crd = obj as Crd;
        applyCrdDefaults(crd);
        const stored = storageVersionName(crd);
        crd.status = { acceptedNames: { plural: '', kind: '' }, conditions: [], storedVersions: stored ? [stored] : [] };
      },
      prepareForUpdate(obj) {
        // The storage version joins storedVersions as soon as it is written (status itself is kept by the split).
        const crd = obj as Crd;
        applyCrdDefaults(crd);
        const stored = storageVersionName(crd);
        const versions = crd.status?.storedVersions ?? [];
        if (stored && !versions.includes(stored)) crd.status = { ...crd.status, storedVersions: [...versions, stored] };
      },
      // Through /status only the status changes: the spec, whatever rules it was stored under, is not judged again.
      validate: (obj, old, subresource) => (subresource === 'status' ? [] : validateCrd(obj as Crd, old as Crd | undefined)),
      prepareForDeletion(obj) {
        // Deleting a CRD first marks it Terminating and holds it until its custom resources are gone.
        const crd = obj as Crd;
        const finalizers = crd.metadata?.finalizers ?? [];
        if (!finalizers.includes(crdCleanupFinalizer)) crd.metadata = { ...crd.metadata, finalizers: [...finalizers, crdCleanupFinalizer] };
        const conditions = (crd.status?.conditions ?? []).filter((c) => c.type !== 'Terminating');
        conditions.push({
          type: 'Terminating',
          status: 'True',
          lastTransitionTime: formatDateRFC3339(new Date()),
          reason: 'InstanceDeletionInProgress',
          message: 'CustomResource deletion is in progress',
        });
        crd.status = { ...crd.status, conditions };
      },
    },
  };
}

/** kube's defaults for a v1 CRD: singular and listKind from the kind, conversion strategy None, webhook service port 443. */
export function applyCrdDefaults(crd: Crd): void {
  const spec = crd.spec;
  if (!spec || typeof spec !== 'object') return;
  if (spec.names && typeof spec.names.kind === 'string') {
    spec.names.singular ||= spec.names.kind.toLowerCase();
    spec.names.listKind ||= `${spec.names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const service = spec.conversion?.webhook?.clientConfig?.service;
  if (service && typeof service === 'object') service.port ??= 443;
}
