import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import { errors } from '../contracts/api-error.js';

export interface DeletePreconditions {
  uid?: string;
  resourceVersion?: string;
}

/** A delete's preconditions against the object about to be deleted: kube's 409 when its UID or resourceVersion differ. */
export function checkDeletePreconditions(rt: ResourceType, current: KubeObject, pre: DeletePreconditions): void {
  const meta = current.metadata!;
  // kube qualifies these conflicts by kind (Widget.example.com), not by resource.
  const byKind = { group: rt.group, resource: rt.names.kind, name: meta.name };
  if (pre.uid && pre.uid !== meta.uid) {
    throw errors.conflict(
      byKind,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${meta.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (pre.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
    throw errors.conflict(
      byKind,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
}
