/**
 * The objects the fuzzer mutates: one valid seed per kind (a widget of examples/crd-only, a Namespace, a CRD, a
 * ValidatingAdmissionPolicy and its binding, webhook configurations), where each kind is served, and the fixed target
 * object of each kind that updates, status writes and patches aim at. Policies and webhooks match only a resource no
 * case touches (and webhooks fail open), so that a successfully written one cannot change the answers to other cases.
 */
export const fuzzNamespace = 'fuzz';
/** Deletes and writes to made-up paths go here, away from the targets. */
export const scratchNamespace = 'fuzz-scratch';

export interface FuzzKind {
  name: string;
  collection: string;
  /** The fixed object updates, status writes and patches aim at. */
  target: string;
  hasStatus: boolean;
  /** The protobuf message name, for kinds kube serves in protobuf. */
  protobuf?: string;
  /** Built-in kinds take strategic merge patches; custom resources answer 415. */
  builtin: boolean;
  /** A valid object named `name` (CRDs adjust their plural to match). */
  seed(name: string): any;
}

const admission = 'admissionregistration.k8s.io/v1';
const nothingRules = [{ apiGroups: ['fuzz.nothing.example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['nothings'] }];
const labelSelector = () => ({ matchLabels: { 'fuzz.example.com/never': 'true' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] });

const webhook = (name: string) => ({
  name,
  clientConfig: { url: 'https://127.0.0.1:1/fuzz', caBundle: Buffer.from('not a CA').toString('base64') },
  rules: nothingRules.map((r) => ({ ...r, scope: '*' })),
  failurePolicy: 'Ignore',
  matchPolicy: 'Exact',
  namespaceSelector: labelSelector(),
  objectSelector: { matchLabels: { a: 'b' } },
  sideEffects: 'None',
  timeoutSeconds: 1,
  admissionReviewVersions: ['v1'],
  matchConditions: [{ name: 'm', expression: 'object != null' }],
});

export const kinds: FuzzKind[] = [
  {
    name: 'widget',
    collection: `/apis/example.com/v1/namespaces/${fuzzNamespace}/widgets`,
    target: 'fuzz-target',
    hasStatus: true,
    builtin: false,
    seed: (name) => ({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name, labels: { tier: 'gold' }, annotations: { note: 'fuzz' } },
      spec: { color: 'blue', replicas: 3 },
      status: { ready: true, replicas: 3 },
    }),
  },
  {
    name: 'namespace',
    collection: '/api/v1/namespaces',
    target: 'fuzz-target-ns',
    hasStatus: true,
    protobuf: 'k8s.io.api.core.v1.Namespace',
    builtin: true,
    seed: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { team: 'blue' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } }),
  },
  {
    name: 'crd',
    collection: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    target: 'fuzzthings.fuzz.example.com',
    hasStatus: true,
    protobuf: 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    builtin: true,
    seed: (name) => {
      const plural = name.split('.')[0]!;
      return {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name },
        spec: {
          group: 'fuzz.example.com',
          scope: 'Namespaced',
          names: { plural, singular: plural.replace(/s$/, ''), kind: `K${plural}`, listKind: `K${plural}List` },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              subresources: { status: {} },
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: { spec: { type: 'object', properties: { size: { type: 'integer', minimum: 0 }, name: { type: 'string', maxLength: 20 } }, required: ['size'] } },
                },
              },
            },
          ],
        },
      };
    },
  },
  {
    name: 'validatingadmissionpolicy',
    collection: '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies',
    target: 'fuzz-target-vap',
    hasStatus: true,
    protobuf: 'k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicy',
    builtin: true,
    seed: (name) => ({
      apiVersion: admission,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: nothingRules, namespaceSelector: labelSelector() },
        variables: [{ name: 'size', expression: 'object.spec.size' }],
        validations: [{ expression: 'variables.size < 10', message: 'too big', reason: 'Invalid' }],
        auditAnnotations: [{ key: 'size', valueExpression: 'string(variables.size)' }],
        matchConditions: [{ name: 'always', expression: 'true' }],
      },
    }),
  },
  {
    name: 'validatingadmissionpolicybinding',
    collection: '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings',
    target: 'fuzz-target-vapb',
    hasStatus: false,
    protobuf: 'k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding',
    builtin: true,
    seed: (name) => ({
      apiVersion: admission,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: { policyName: 'fuzz-target-vap', validationActions: ['Deny', 'Audit'], matchResources: { namespaceSelector: labelSelector() } },
    }),
  },
  {
    name: 'mutatingadmissionpolicy',
    collection: '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies',
    target: 'fuzz-target-map',
    hasStatus: false,
    protobuf: 'k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicy',
    builtin: true,
    seed: (name) => ({
      apiVersion: admission,
      kind: 'MutatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        reinvocationPolicy: 'IfNeeded',
        matchConstraints: { resourceRules: nothingRules, namespaceSelector: labelSelector() },
        variables: [{ name: 'size', expression: 'object.spec.size' }],
        mutations: [
          { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{spec: Object.spec{size: variables.size + 1}}' } },
          { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/spec/size", value: 1}]' } },
        ],
        matchConditions: [{ name: 'always', expression: 'true' }],
      },
    }),
  },
  {
    name: 'mutatingadmissionpolicybinding',
    collection: '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings',
    target: 'fuzz-target-mapb',
    hasStatus: false,
    protobuf: 'k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicyBinding',
    builtin: true,
    seed: (name) => ({
      apiVersion: admission,
      kind: 'MutatingAdmissionPolicyBinding',
      metadata: { name },
      spec: { policyName: 'fuzz-target-map', matchResources: { namespaceSelector: labelSelector() } },
    }),
  },
  {
    name: 'validatingwebhookconfiguration',
    collection: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    target: 'fuzz-target-vwc',
    hasStatus: false,
    protobuf: 'k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration',
    builtin: true,
    seed: (name) => ({ apiVersion: admission, kind: 'ValidatingWebhookConfiguration', metadata: { name }, webhooks: [webhook('v.fuzz.example.com')] }),
  },
  {
    name: 'mutatingwebhookconfiguration',
    collection: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
    target: 'fuzz-target-mwc',
    hasStatus: false,
    protobuf: 'k8s.io.api.admissionregistration.v1.MutatingWebhookConfiguration',
    builtin: true,
    seed: (name) => ({
      apiVersion: admission,
      kind: 'MutatingWebhookConfiguration',
      metadata: { name },
      webhooks: [{ ...webhook('m.fuzz.example.com'), reinvocationPolicy: 'Never' }],
    }),
  },
];

/** A fresh name for a create, valid for the kind (CRD names are `<plural>.<group>`). */
export function createName(kind: FuzzKind, index: number): string {
  return kind.name === 'crd' ? `fz${index}s.fuzz.example.com` : `fz-${index}`;
}
