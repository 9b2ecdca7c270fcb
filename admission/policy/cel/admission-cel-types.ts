/**
 * The declared CEL types of admission expressions (Kubernetes' BuildRequestType and BuildNamespaceType): `request`
 * is a kubernetes.AdmissionRequest and `namespaceObject` a kubernetes.Namespace, so that misspelt fields are
 * compile errors; at runtime both are plain maps of the data.
 */
import { objectType, T, USER_INFO_TYPE } from '../../../lib/cel/types.js';

const gvk = objectType('kubernetes.GroupVersionKind', { group: T.string, version: T.string, kind: T.string });
const gvr = objectType('kubernetes.GroupVersionResource', { group: T.string, version: T.string, resource: T.string });

export const REQUEST_TYPE = objectType('kubernetes.AdmissionRequest', {
  kind: gvk,
  resource: gvr,
  subResource: T.string,
  requestKind: gvk,
  requestResource: gvr,
  requestSubResource: T.string,
  name: T.string,
  namespace: T.string,
  operation: T.string,
  userInfo: USER_INFO_TYPE,
  dryRun: T.bool,
  options: T.dyn,
});

const stringList = T.list(T.string);
const stringMap = T.map(T.string, T.string);

export const NAMESPACE_TYPE = objectType('kubernetes.Namespace', {
  metadata: objectType('kubernetes.NamespaceMetadata', {
    name: T.string,
    generateName: T.string,
    namespace: T.string,
    labels: stringMap,
    annotations: stringMap,
    UID: T.string,
    creationTimestamp: T.timestamp,
    deletionGracePeriodSeconds: T.int,
    deletionTimestamp: T.timestamp,
    generation: T.int,
    resourceVersion: T.string,
    finalizers: stringList,
  }),
  spec: objectType('kubernetes.NamespaceSpec', { finalizers: stringList }),
  status: objectType('kubernetes.NamespaceStatus', {
    conditions: T.list(
      objectType('kubernetes.NamespaceCondition', {
        status: T.string,
        type: T.string,
        lastTransitionTime: T.timestamp,
        message: T.string,
        reason: T.string,
      }),
    ),
    phase: T.string,
  }),
});
