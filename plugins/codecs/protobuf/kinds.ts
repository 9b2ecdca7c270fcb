import type protobuf from 'protobufjs';
import type { TypeMeta } from '../../../core/contracts/codec.js';
import { messageFromJSON, messageToJSON } from './converter.js';
import type { JsonObject, Msg } from './json-shape.js';
import { kubeType, packages } from './schema.js';

/** One kind with a protobuf encoding: its message type and the conversions to and from kube's JSON shape. */
export interface ProtobufKind {
  readonly type: protobuf.Type;
  /** Decoded message -> JSON object without apiVersion/kind. */
  toJSON(message: Msg): JsonObject;
  /** JSON object -> plain message object ready for `type.encode`. */
  fromJSON(object: JsonObject): Msg;
}

/** The kind for a message type, converted by the generic converter. */
export function messageKind(typeName: string): ProtobufKind {
  const type = kubeType(typeName);
  return { type, toJSON: (m) => messageToJSON(type, m), fromJSON: (o) => messageFromJSON(type, o) };
}

const meta = (name: string) => messageKind(`${packages.metaV1}.${name}`);
const byKind = (group: string, pkg: string, kinds: string[]): [string, ProtobufKind][] =>
  kinds.map((kind) => [`${group}|${kind}`, messageKind(`${pkg}.${kind}`)]);

/**
 * The built-in and meta kinds with a protobuf encoding, by `apiVersion|kind`. Status and the discovery documents are
 * unversioned `v1` types in kube's scheme; PartialObjectMetadata(List) exist in meta.k8s.io v1 and v1beta1 (whose list
 * is its own message). Table has none (`+protobuf=false` in Kubernetes).
 */
const staticKinds = new Map<string, ProtobufKind>([
  ...byKind('v1', packages.coreV1, ['Namespace', 'NamespaceList', 'ConfigMap', 'ConfigMapList', 'Secret', 'SecretList', 'ServiceAccount', 'ServiceAccountList', 'Event', 'EventList']),
  ...byKind('authentication.k8s.io/v1', packages.authenticationV1, ['TokenRequest', 'TokenReview', 'SelfSubjectReview']),
  ...byKind('authorization.k8s.io/v1', packages.authorizationV1, ['SubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SelfSubjectRulesReview']),
  ...byKind('coordination.k8s.io/v1', packages.coordinationV1, ['Lease', 'LeaseList']),
  ...byKind('flowcontrol.apiserver.k8s.io/v1', packages.flowcontrolV1, ['FlowSchema', 'FlowSchemaList', 'PriorityLevelConfiguration', 'PriorityLevelConfigurationList']),
  ...byKind('rbac.authorization.k8s.io/v1', packages.rbacV1, ['Role', 'RoleList', 'ClusterRole', 'ClusterRoleList', 'RoleBinding', 'RoleBindingList', 'ClusterRoleBinding', 'ClusterRoleBindingList']),
  ...byKind('events.k8s.io/v1', packages.eventsV1, ['Event', 'EventList']),
  ...byKind('v1', packages.metaV1, ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']),
  ...byKind('apiextensions.k8s.io/v1', packages.apiextensionsV1, ['CustomResourceDefinition', 'CustomResourceDefinitionList']),
  ...byKind('admissionregistration.k8s.io/v1', packages.admissionregistrationV1, [
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyList',
    'ValidatingAdmissionPolicyBinding',
    'ValidatingAdmissionPolicyBindingList',
    'ValidatingWebhookConfiguration',
    'ValidatingWebhookConfigurationList',
    'MutatingWebhookConfiguration',
    'MutatingWebhookConfigurationList',
  ]),
  ...(['V1', 'V1beta1', 'V1alpha1'] as const).flatMap((v) =>
    byKind(`admissionregistration.k8s.io/${v.toLowerCase()}`, packages[`admissionregistration${v}`], [
      'MutatingAdmissionPolicy',
      'MutatingAdmissionPolicyList',
      'MutatingAdmissionPolicyBinding',
      'MutatingAdmissionPolicyBindingList',
    ]),
  ),
  ...byKind('v1', packages.coreV1, ['Service', 'ServiceList', 'Endpoints', 'EndpointsList']),
  ...byKind('apiregistration.k8s.io/v1', packages.apiregistrationV1, ['APIService', 'APIServiceList']),
  ['meta.k8s.io/v1|PartialObjectMetadata', meta('PartialObjectMetadata')],
  ['meta.k8s.io/v1|PartialObjectMetadataList', meta('PartialObjectMetadataList')],
  ['meta.k8s.io/v1beta1|PartialObjectMetadata', meta('PartialObjectMetadata')],
  ['meta.k8s.io/v1beta1|PartialObjectMetadataList', messageKind(`${packages.metaV1beta1}.PartialObjectMetadataList`)],
]);
const deleteOptions = meta('DeleteOptions');

/**
 * The built-in or meta kind for an apiVersion/kind, or undefined. kube registers meta/v1 DeleteOptions in every
 * group version (metav1.AddToGroupVersion), so `DeleteOptions` is one under any apiVersion.
 */
export function builtinProtobufKind(t: TypeMeta): ProtobufKind | undefined {
  if (t.kind === 'DeleteOptions') return deleteOptions;
  return staticKinds.get(`${t.apiVersion}|${t.kind}`);
}
