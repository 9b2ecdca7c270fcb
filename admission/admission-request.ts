import { randomUUID } from 'node:crypto';
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource } from '../core/contracts/admission-attributes.js';
import type { KubeObject } from '../core/contracts/resource-type.js';

/**
 * admission.k8s.io/v1 AdmissionRequest: what a webhook receives in an AdmissionReview and what CEL admission
 * expressions see as `request`. On DELETE `object` is null and `oldObject` is the object being deleted.
 */
export interface AdmissionRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  requestKind: GroupVersionKind;
  requestResource: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: AdmissionAttributes['operation'];
  userInfo: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  object: KubeObject | null;
  oldObject: KubeObject | null;
  dryRun: boolean;
  options: Record<string, unknown>;
}

/** The AdmissionRequest of a write, with a fresh uid (kube gives every admission call its own). */
export function admissionRequest(attrs: AdmissionAttributes): AdmissionRequest {
  const deleting = attrs.operation === 'DELETE';
  const { username, uid, groups, extra } = attrs.userInfo;
  return {
    uid: randomUUID(),
    kind: attrs.kind,
    resource: attrs.resource,
    ...(attrs.subresource ? { subResource: attrs.subresource } : {}),
    requestKind: attrs.kind,
    requestResource: attrs.resource,
    ...(attrs.subresource ? { requestSubResource: attrs.subresource } : {}),
    ...(attrs.name ? { name: attrs.name } : {}),
    ...(attrs.namespace ? { namespace: attrs.namespace } : {}),
    operation: attrs.operation,
    userInfo: { username, ...(uid ? { uid } : {}), ...(groups.length ? { groups } : {}), ...(extra ? { extra } : {}) },
    object: deleting ? null : attrs.object,
    oldObject: deleting ? (attrs.oldObject ?? attrs.object) : (attrs.oldObject ?? null),
    dryRun: attrs.dryRun,
    options: attrs.options,
  };
}
