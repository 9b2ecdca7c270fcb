import protobuf from 'protobufjs';
import { admissionregistrationMutatingPolicyProto } from './protos/admissionregistration-policy-messages.js';
import { admissionregistrationV1Proto } from './protos/admissionregistration-v1.js';
import { apiextensionsV1Proto } from './protos/apiextensions-v1.js';
import { apiregistrationV1Proto } from './protos/apiregistration-v1.js';
import { authenticationV1Proto } from './protos/authentication-v1.js';
import { authorizationV1AccessReviewsProto } from './protos/authorization-v1-access-reviews.js';
import { coordinationV1Proto } from './protos/coordination-v1.js';
import { flowcontrolV1Proto } from './protos/flowcontrol-v1.js';
import { rbacV1Proto } from './protos/rbac-v1.js';
import { authorizationV1RulesReviewProto } from './protos/authorization-v1-rules-review.js';
import { coreV1Proto } from './protos/core-v1.js';
import { eventsV1Proto } from './protos/events-v1.js';
import { coreV1ServicesProto } from './protos/core-v1-services.js';
import { intstrProto } from './protos/intstr.js';
import { metaV1Proto, metaV1beta1Proto } from './protos/meta-v1.js';
import { runtimeProto } from './protos/runtime.js';

/*
 * The protobuf messages kapi reads and writes, one text per Kubernetes package with Kubernetes' own package names
 * and field numbers (protos/*.ts name the generated.proto each comes from). Parsed once at module load, with the
 * field names as written (`Raw`, `Webhooks`, `jSONSchemas`): no file reads, no code generation step.
 */
function buildRoot(): protobuf.Root {
  const root = new protobuf.Root();
  const texts = [
    runtimeProto,
    intstrProto,
    metaV1Proto,
    metaV1beta1Proto,
    coreV1Proto,
    authenticationV1Proto,
    authorizationV1AccessReviewsProto,
    coordinationV1Proto,
    flowcontrolV1Proto,
    rbacV1Proto,
    authorizationV1RulesReviewProto,
    eventsV1Proto,
    coreV1ServicesProto,
    apiextensionsV1Proto,
    admissionregistrationV1Proto,
    admissionregistrationMutatingPolicyProto('v1beta1'),
    admissionregistrationMutatingPolicyProto('v1alpha1'),
    apiregistrationV1Proto,
  ];
  for (const text of texts) protobuf.parse(text, root, { keepCase: true });
  root.resolveAll();
  return root;
}

/** The parsed and resolved message definitions. */
export const kubeProtoRoot: protobuf.Root = buildRoot();

/** Package prefixes of the full message names. */
export const packages = {
  runtime: 'k8s.io.apimachinery.pkg.runtime',
  intstr: 'k8s.io.apimachinery.pkg.util.intstr',
  metaV1: 'k8s.io.apimachinery.pkg.apis.meta.v1',
  metaV1beta1: 'k8s.io.apimachinery.pkg.apis.meta.v1beta1',
  coreV1: 'k8s.io.api.core.v1',
  authenticationV1: 'k8s.io.api.authentication.v1',
  authorizationV1: 'k8s.io.api.authorization.v1',
  coordinationV1: 'k8s.io.api.coordination.v1',
  flowcontrolV1: 'k8s.io.api.flowcontrol.v1',
  rbacV1: 'k8s.io.api.rbac.v1',
  eventsV1: 'k8s.io.api.events.v1',
  apiextensionsV1: 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1',
  admissionregistrationV1: 'k8s.io.api.admissionregistration.v1',
  admissionregistrationV1beta1: 'k8s.io.api.admissionregistration.v1beta1',
  admissionregistrationV1alpha1: 'k8s.io.api.admissionregistration.v1alpha1',
  apiregistrationV1: 'k8s.io.kube_aggregator.pkg.apis.apiregistration.v1',
} as const;

/** A message type by its full name (without the leading dot). */
export function kubeType(fullName: string): protobuf.Type {
  return kubeProtoRoot.lookupType(fullName);
}

/** The message types the envelope and the watch framing use directly. */
export const KubeTypes = {
  Unknown: kubeType(`${packages.runtime}.Unknown`),
  WatchEvent: kubeType(`${packages.metaV1}.WatchEvent`),
  ObjectMeta: kubeType(`${packages.metaV1}.ObjectMeta`),
  ListMeta: kubeType(`${packages.metaV1}.ListMeta`),
} as const;
