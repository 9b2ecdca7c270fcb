import type { StatusCause } from '../contracts/status.js';
import type { ObjectMeta } from '../contracts/resource-type.js';
import { appendCauses, fieldErrors } from '../contracts/api-error.js';
import { validateFinalizers } from '../../lib/k8s/finalizers.js';
import { validateAnnotations, validateLabels } from '../../lib/k8s/labels.js';
import { nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain, nameIsPathSegment, type NameValidator } from '../../lib/k8s/names.js';
import { validateOwnerReferences } from './owner-references.js';

export interface ObjectMetaValidationOptions {
  namespaced: boolean;
  /** The rule for metadata.name: DNS subdomain (most types, custom resources), DNS label (e.g. Namespace) or just a safe URL path segment. */
  nameValidator: 'subdomain' | 'label' | 'dns1035-label' | 'path-segment';
  /** kube's core-group rule (e.g. Namespace): an unprefixed finalizer must be `kubernetes`, `orphan` or `foregroundDeletion`. */
  standardFinalizerNames?: boolean;
}

/** kube's error text for changed immutable fields. */
export const FIELD_IMMUTABLE = 'field is immutable';

const nameValidators: Record<ObjectMetaValidationOptions['nameValidator'], NameValidator> = {
  subdomain: nameIsDNSSubdomain,
  label: nameIsDNSLabel,
  'dns1035-label': nameIsDNS1035Label,
  'path-segment': nameIsPathSegment,
};

/**
 * apimachinery ValidateObjectMetaAccessor: what kube-apiserver checks in metadata on create.
 * For cluster-scoped types a set namespace is reported as forbidden here; kube-apiserver never gets that far,
 * because its create handler clears the namespace of cluster-scoped objects before validating.
 */
export function validateObjectMetaCreate(meta: ObjectMeta, opts: ObjectMetaValidationOptions): StatusCause[] {
  const nameFn = nameValidators[opts.nameValidator];
  const causes: StatusCause[] = [];
  if (meta.generateName) {
    for (const msg of nameFn(meta.generateName, true)) causes.push(fieldErrors.invalid('metadata.generateName', meta.generateName, msg));
  }
  if (!meta.name) causes.push(fieldErrors.required('metadata.name', 'name or generateName is required'));
  else for (const msg of nameFn(meta.name, false)) causes.push(fieldErrors.invalid('metadata.name', meta.name, msg));
  if (opts.namespaced) {
    if (!meta.namespace) causes.push(fieldErrors.required('metadata.namespace'));
    else for (const msg of nameIsDNSLabel(meta.namespace, false)) causes.push(fieldErrors.invalid('metadata.namespace', meta.namespace, msg));
  } else if (meta.namespace) {
    causes.push(fieldErrors.forbidden('metadata.namespace', 'not allowed on this type'));
  }
  if ((meta.generation ?? 0) < 0) causes.push(fieldErrors.invalid('metadata.generation', meta.generation, 'must be greater than or equal to 0'));
  appendCauses(causes, validateLabels(meta.labels, 'metadata.labels'));
  appendCauses(causes, validateAnnotations(meta.annotations, 'metadata.annotations'));
  appendCauses(causes, validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'));
  appendCauses(causes, validateFinalizers(meta.finalizers, 'metadata.finalizers', opts.standardFinalizerNames));
  return causes;
}

/** A timestamp as metav1.Time serializes it (RFC 3339, UTC, whole seconds); unparseable text is kept. */
function canonicalTime(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Go's %#v of a []string, as kube prints it inside some messages. */
function goStringSlice(values: string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/**
 * What kube-apiserver checks in metadata on update: the create checks on the new metadata, then
 * apimachinery ValidateObjectMetaAccessorUpdate (no finalizers added while deleting, resourceVersion set,
 * generation not decreased, name/namespace/uid/creationTimestamp/deletionTimestamp/deletionGracePeriodSeconds unchanged).
 */
export function validateObjectMetaUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta, opts: ObjectMetaValidationOptions): StatusCause[] {
  const causes = validateObjectMetaCreate(newMeta, opts);
  if (oldMeta.deletionTimestamp) {
    const old = new Set(oldMeta.finalizers ?? []);
    const extra = [...new Set(newMeta.finalizers ?? [])].filter((f) => !old.has(f)).sort();
    if (extra.length > 0) {
      causes.push(
        fieldErrors.forbidden(
          'metadata.finalizers',
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`,
        ),
      );
    }
  }
  if (!newMeta.resourceVersion) causes.push(fieldErrors.invalid('metadata.resourceVersion', '', 'must be specified for an update'));
  if ((newMeta.generation ?? 0) < (oldMeta.generation ?? 0)) {
    causes.push(fieldErrors.invalid('metadata.generation', newMeta.generation ?? 0, 'must not be decremented'));
  }
  const immutable: [keyof ObjectMeta, unknown, unknown][] = [
    ['name', newMeta.name ?? '', oldMeta.name ?? ''],
    ['namespace', newMeta.namespace ?? '', oldMeta.namespace ?? ''],
    ['uid', newMeta.uid ?? '', oldMeta.uid ?? ''],
    ['creationTimestamp', canonicalTime(newMeta.creationTimestamp), canonicalTime(oldMeta.creationTimestamp)],
    ['deletionTimestamp', canonicalTime(newMeta.deletionTimestamp), canonicalTime(oldMeta.deletionTimestamp)],
    ['deletionGracePeriodSeconds', newMeta.deletionGracePeriodSeconds ?? undefined, oldMeta.deletionGracePeriodSeconds ?? undefined],
  ];
  for (const [key, now, before] of immutable) {
    if (now !== before) causes.push(fieldErrors.invalid(`metadata.${key}`, now, FIELD_IMMUTABLE));
  }
  return causes;
}
