// Every built-in and meta kind kapi serves, through Kubernetes protobuf: round trips, Go's JSON rules, and the bytes
// checked against an independent protobufjs reading of the .proto texts and against hand-computed Go output.
import test from 'ava';
import protobuf from 'protobufjs';
import { ApiError } from '../../../../../core/contracts/api-error.js';
import { KubeProtobufCodec, unwrapKubeProtobuf } from '../../../../../plugins/codecs/protobuf/index.js';
import { admissionregistrationMutatingPolicyProto } from '../../../../../plugins/codecs/protobuf/protos/admissionregistration-policy-messages.js';
import { admissionregistrationV1Proto } from '../../../../../plugins/codecs/protobuf/protos/admissionregistration-v1.js';
import { apiextensionsV1Proto } from '../../../../../plugins/codecs/protobuf/protos/apiextensions-v1.js';
import { coreV1Proto } from '../../../../../plugins/codecs/protobuf/protos/core-v1.js';
import { intstrProto } from '../../../../../plugins/codecs/protobuf/protos/intstr.js';
import { metaV1Proto, metaV1beta1Proto } from '../../../../../plugins/codecs/protobuf/protos/meta-v1.js';
import { runtimeProto } from '../../../../../plugins/codecs/protobuf/protos/runtime.js';

const codec = new KubeProtobufCodec();
type Obj = Record<string, unknown>;
const typeOf = (o: Obj) => ({ apiVersion: o.apiVersion as string, kind: o.kind as string });
const roundTrip = (o: Obj) => codec.decode(codec.encode(o), typeOf(o)) as Obj;

// An independent reader: protobufjs reflection over the same .proto texts, without kapi's converter.
const independent = new protobuf.Root();
for (const text of [
  runtimeProto,
  intstrProto,
  metaV1Proto,
  metaV1beta1Proto,
  coreV1Proto,
  apiextensionsV1Proto,
  admissionregistrationV1Proto,
  admissionregistrationMutatingPolicyProto('v1beta1'),
  admissionregistrationMutatingPolicyProto('v1alpha1'),
]) {
  protobuf.parse(text, independent, { keepCase: true });
}
independent.resolveAll();
const pb = (name: string) => independent.lookupType(name);
const toObject = (type: protobuf.Type, bytes: Uint8Array) => type.toObject(type.decode(bytes), { longs: Number, bytes: String, defaults: false });
function rawOf(bytes: Buffer): Uint8Array {
  return unwrapKubeProtobuf(bytes).raw;
}

// ---- sample objects, as kapi stores and serves them ----------------------------------------------------------------

const t0 = '2026-01-02T03:04:05Z';
const meta = (name: string) => ({ name, uid: `uid-${name}`, resourceVersion: '7', generation: 2, creationTimestamp: t0 });

const crd: Obj = {
  kind: 'CustomResourceDefinition',
  apiVersion: 'apiextensions.k8s.io/v1',
  metadata: { ...meta('widgets.example.com'), finalizers: ['customresourcecleanup.apiextensions.k8s.io'] },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList', categories: ['all'] },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            $schema: 'http://json-schema.org/draft-04/schema#',
            description: 'A widget',
            type: 'object',
            required: ['spec'],
            properties: {
              spec: {
                type: 'object',
                default: { size: 1 },
                properties: {
                  size: { type: 'integer', format: 'int32', default: 3, maximum: 10.5, exclusiveMaximum: true, minimum: 0, multipleOf: 0.5 },
                  color: { type: 'string', enum: ['red', 'blue', null], pattern: '^[a-z]+$', maxLength: 20, minLength: 0, nullable: true },
                  tags: { type: 'array', items: { type: 'string' }, maxItems: 5, minItems: 0, uniqueItems: true, 'x-kubernetes-list-type': 'set' },
                  pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
                  labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 3, minProperties: 0, 'x-kubernetes-map-type': 'granular' },
                  open: { type: 'object', additionalProperties: true, 'x-kubernetes-preserve-unknown-fields': true },
                  port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
                  ref: { $ref: '#/definitions/thing', example: { a: [1, 'b', true] } },
                  embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': false },
                  items: { type: 'array', items: { type: 'object', required: ['k'], properties: { k: { type: 'string' } } }, 'x-kubernetes-list-map-keys': ['k'], 'x-kubernetes-list-type': 'map' },
                  choice: { oneOf: [{ required: ['a'] }, { required: ['b'] }], not: { required: ['c'] }, allOf: [{ title: 'x' }] },
                },
                dependencies: { a: ['b', 'c'], d: { required: ['e'] } },
                patternProperties: { '^x-': { type: 'string' } },
                definitions: { thing: { type: 'string', id: 'thing', externalDocs: { description: 'docs', url: 'https://example.com' } } },
                'x-kubernetes-validations': [
                  { rule: 'self.size < 10', message: 'too big', reason: 'FieldValueForbidden', fieldPath: '.size' },
                  { rule: 'self.size >= oldSelf.size', messageExpression: "'shrunk'", optionalOldSelf: false },
                ],
              },
              status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', format: 'int32', description: 'the size', priority: 1, jsonPath: '.spec.size' }],
        selectableFields: [{ jsonPath: '.spec.color' }],
      },
      { name: 'v1beta1', served: false, storage: false, deprecated: true, deprecationWarning: '' },
    ],
    conversion: {
      strategy: 'Webhook',
      webhook: {
        clientConfig: { service: { namespace: 'conv', name: 'svc', path: '/convert', port: 8443 }, caBundle: Buffer.from('PEM').toString('base64') },
        conversionReviewVersions: ['v1'],
      },
    },
  },
  status: {
    conditions: [
      { type: 'NamesAccepted', status: 'True', lastTransitionTime: t0, reason: 'NoConflicts', message: 'no conflicts found' },
      { type: 'Established', status: 'True', lastTransitionTime: t0, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ],
    acceptedNames: { plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList', categories: ['all'] },
    storedVersions: ['v1'],
  },
};

const matchResources = {
  namespaceSelector: { matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] },
  objectSelector: {},
  resourceRules: [{ resourceNames: ['x'], operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: '*' }],
  excludeResourceRules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['*'], resources: ['pods/*'] }],
  matchPolicy: 'Equivalent',
};

const vap: Obj = {
  kind: 'ValidatingAdmissionPolicy',
  apiVersion: 'admissionregistration.k8s.io/v1',
  metadata: meta('policy'),
  spec: {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConstraints: matchResources,
    validations: [{ expression: 'object.spec.replicas <= 5', message: 'too many', reason: 'Invalid', messageExpression: "'no'" }],
    failurePolicy: 'Fail',
    auditAnnotations: [{ key: 'k', valueExpression: "'v'" }],
    matchConditions: [{ name: 'only-prod', expression: 'true' }],
    variables: [{ name: 'replicas', expression: 'object.spec.replicas' }],
  },
  status: {
    observedGeneration: 2,
    typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'no such key' }] },
    conditions: [{ type: 'Ready', status: 'True', observedGeneration: 2, lastTransitionTime: t0, reason: 'Checked', message: '' }],
  },
};

const binding: Obj = {
  kind: 'ValidatingAdmissionPolicyBinding',
  apiVersion: 'admissionregistration.k8s.io/v1',
  metadata: meta('binding'),
  spec: {
    policyName: 'policy',
    paramRef: { name: 'params', namespace: 'default', parameterNotFoundAction: 'Deny' },
    matchResources,
    validationActions: ['Deny', 'Audit'],
  },
};

const mapSpec = {
  paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
  matchConstraints: matchResources,
  variables: [{ name: 'env', expression: 'object.metadata.name' }],
  mutations: [
    { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{}' } },
    { patchType: 'JSONPatch', jsonPatch: { expression: '[]' } },
  ],
  failurePolicy: 'Fail',
  matchConditions: [{ name: 'only-prod', expression: 'true' }],
  reinvocationPolicy: 'IfNeeded',
};

const mutatingPolicies: Obj[] = ['v1', 'v1beta1', 'v1alpha1'].flatMap((version) => {
  const apiVersion = `admissionregistration.k8s.io/${version}`;
  const policy = { kind: 'MutatingAdmissionPolicy', apiVersion, metadata: meta('mutator'), spec: mapSpec };
  const mb = { kind: 'MutatingAdmissionPolicyBinding', apiVersion, metadata: meta('mutator'), spec: { policyName: 'mutator', paramRef: { selector: {}, parameterNotFoundAction: 'Allow' }, matchResources } };
  return [
    policy,
    { kind: 'MutatingAdmissionPolicyList', apiVersion, metadata: { resourceVersion: '9' }, items: [policy] },
    mb,
    { kind: 'MutatingAdmissionPolicyBindingList', apiVersion, metadata: {}, items: [mb] },
  ];
});

const webhook = {
  name: 'check.example.com',
  clientConfig: { url: 'https://127.0.0.1:9443/validate', caBundle: Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64') },
  rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], scope: 'Namespaced' }],
  failurePolicy: 'Ignore',
  matchPolicy: 'Exact',
  namespaceSelector: {},
  objectSelector: { matchLabels: { a: 'b' } },
  sideEffects: 'None',
  timeoutSeconds: 0,
  admissionReviewVersions: ['v1', 'v1beta1'],
  matchConditions: [{ name: 'c', expression: 'true' }],
};

const { matchConditions, ...webhookBeforeConditions } = webhook;
const vwc: Obj = { kind: 'ValidatingWebhookConfiguration', apiVersion: 'admissionregistration.k8s.io/v1', metadata: meta('vwc'), webhooks: [webhook] };
const mwc: Obj = {
  kind: 'MutatingWebhookConfiguration',
  apiVersion: 'admissionregistration.k8s.io/v1',
  metadata: meta('mwc'),
  webhooks: [{ ...webhookBeforeConditions, clientConfig: { service: { namespace: 'ns', name: 'svc' } }, reinvocationPolicy: 'IfNeeded', matchConditions }],
};

const namespace: Obj = {
  kind: 'Namespace',
  apiVersion: 'v1',
  metadata: { ...meta('demo'), labels: { 'kubernetes.io/metadata.name': 'demo' } },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
};

const configMap: Obj = {
  kind: 'ConfigMap',
  apiVersion: 'v1',
  metadata: { name: 'cm', namespace: 'demo', uid: 'uid-cm', resourceVersion: '7', creationTimestamp: t0 },
  immutable: false,
  data: { 'a.conf': 'x=1', b: '' },
  binaryData: { raw: Buffer.from([0, 0xff]).toString('base64') },
};

const secret: Obj = {
  kind: 'Secret',
  apiVersion: 'v1',
  metadata: { name: 's', namespace: 'demo', uid: 'uid-s', resourceVersion: '7', creationTimestamp: t0 },
  immutable: true,
  data: { 'tls.crt': Buffer.from('cert').toString('base64'), 'tls.key': '' },
  type: 'kubernetes.io/tls',
};

const status: Obj = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Widget.example.com "w" is invalid: spec.size: Invalid value: 11: too big',
  reason: 'Invalid',
  details: { name: 'w', group: 'example.com', kind: 'Widget', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 11: too big', field: 'spec.size' }] },
  code: 422,
};

const resourceList: Obj = {
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: 'example.com/v1',
  resources: [
    { name: 'widgets', singularName: 'widget', namespaced: true, kind: 'Widget', verbs: ['get', 'list', 'watch'], shortNames: ['wd'], categories: ['all'], storageVersionHash: 'abc=' },
    { name: 'widgets/status', singularName: '', namespaced: true, kind: 'Widget', verbs: ['get', 'patch', 'update'] },
    { name: 'widgets/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: [] },
  ],
};

const samples: Obj[] = [
  namespace,
  { kind: 'NamespaceList', apiVersion: 'v1', metadata: { resourceVersion: '9', continue: 'abc', remainingItemCount: 0 }, items: [namespace] },
  configMap,
  { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [configMap] },
  secret,
  { kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [secret] },
  crd,
  { kind: 'CustomResourceDefinitionList', apiVersion: 'apiextensions.k8s.io/v1', metadata: { resourceVersion: '9' }, items: [crd] },
  vap,
  { kind: 'ValidatingAdmissionPolicyList', apiVersion: 'admissionregistration.k8s.io/v1', metadata: { resourceVersion: '9' }, items: [vap] },
  binding,
  { kind: 'ValidatingAdmissionPolicyBindingList', apiVersion: 'admissionregistration.k8s.io/v1', metadata: {}, items: [binding] },
  vwc,
  { kind: 'ValidatingWebhookConfigurationList', apiVersion: 'admissionregistration.k8s.io/v1', metadata: {}, items: [vwc] },
  mwc,
  { kind: 'MutatingWebhookConfigurationList', apiVersion: 'admissionregistration.k8s.io/v1', metadata: {}, items: [mwc] },
  ...mutatingPolicies,
  status,
  { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'demo', kind: 'namespaces', uid: 'u1', retryAfterSeconds: 1 } },
  resourceList,
  {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [{ name: 'example.com', versions: [{ groupVersion: 'example.com/v1', version: 'v1' }], preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' } }],
  },
  { kind: 'APIGroup', apiVersion: 'v1', name: 'example.com', versions: [{ groupVersion: 'example.com/v1', version: 'v1' }], preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' } },
  { kind: 'APIVersions', apiVersion: 'v1', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] },
  { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: meta('demo') },
  { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '9' }, items: [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: meta('a') }] },
  { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: meta('demo') },
  { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1beta1', metadata: { resourceVersion: '9' }, items: [{ metadata: meta('a') }] },
  { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 0, preconditions: { uid: 'u', resourceVersion: '' }, propagationPolicy: 'Orphan', dryRun: ['All'] },
  {
    kind: 'SubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec: {
      resourceAttributes: {
        namespace: 'a',
        verb: 'list',
        group: 'example.com',
        resource: 'widgets',
        fieldSelector: { requirements: [{ key: 'spec.size', operator: 'In', values: ['1'] }] },
        labelSelector: { rawSelector: 'x=y' },
      },
      user: 'alice',
      groups: ['g'],
      extra: { empty: [], scopes: ['a', 'b'] },
      uid: 'u1',
    },
    status: { allowed: false, denied: true, reason: 'no', evaluationError: 'oops' },
  },
  {
    kind: 'LocalSubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { namespace: 'a', creationTimestamp: null },
    spec: { resourceAttributes: { namespace: 'a', verb: 'get', resource: 'configmaps' }, groups: ['g'] },
    status: { allowed: true },
  },
  {
    kind: 'SelfSubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
    status: { allowed: false },
  },
];

/** What a list item reads back as: list items carry no apiVersion/kind in kube's protobuf (nor in Go's JSON of a typed list). */
function withoutItemTypeMeta(o: Obj): Obj {
  if (!Array.isArray(o.items)) return o;
  return { ...o, items: (o.items as Obj[]).map(({ kind: _k, apiVersion: _a, ...rest }) => rest) };
}

for (const [i, sample] of samples.entries()) {
  test(`round trip ${i}: ${sample.apiVersion} ${sample.kind} JSON -> protobuf -> the same JSON`, (t) => {
    t.true(codec.encodes(typeOf(sample)));
    const back = roundTrip(sample);
    t.deepEqual(back, withoutItemTypeMeta(sample));
    // Keys come out in Go's order (struct fields as declared, map keys sorted): a second trip keeps the text.
    t.is(JSON.stringify(roundTrip(back)), JSON.stringify(back));
    if (sample.kind !== 'CustomResourceDefinition' && sample.kind !== 'CustomResourceDefinitionList') {
      t.is(JSON.stringify(back), JSON.stringify(withoutItemTypeMeta(sample)), 'the sample is written in Go order already');
    }
    // Encoding is deterministic and stable across a second trip.
    t.is(codec.encode(back).toString('hex'), codec.encode(sample).toString('hex'));
  });
}

test('kinds without protobuf in Kubernetes are not encoded: Table, custom resources, unserved groups', (t) => {
  t.false(codec.encodes({ apiVersion: 'meta.k8s.io/v1', kind: 'Table' }));
  t.false(codec.encodes({ apiVersion: 'meta.k8s.io/v1beta1', kind: 'Table' }));
  t.false(codec.encodes({ apiVersion: 'example.com/v1', kind: 'Widget' }));
  t.false(codec.encodes({ apiVersion: 'apps/v1', kind: 'Deployment' }));
  t.false(codec.encodes({ apiVersion: 'v2', kind: 'Status' }));
  t.true(codec.encodes({ apiVersion: 'apps/v1', kind: 'DeleteOptions' }));
  const err = t.throws(() => codec.encode({ apiVersion: 'meta.k8s.io/v1', kind: 'Table', rows: [] }), { instanceOf: ApiError });
  t.is(err!.code, 406);
  t.is(err!.message, 'object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message');
  const listErr = t.throws(() => codec.encode({ apiVersion: 'example.com/v1', kind: 'WidgetList', items: [] }), { instanceOf: ApiError });
  t.is(listErr!.message, 'object *unstructured.UnstructuredList does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message');
});

// ---- the independent reader -------------------------------------------------------------------------------------------

test('an independent protobufjs reading of the encoded CRD finds the values under kube field numbers and names', (t) => {
  const bytes = codec.encode(crd);
  t.deepEqual(unwrapKubeProtobuf(bytes).kind, 'CustomResourceDefinition');
  const o = toObject(pb('k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition'), rawOf(bytes)) as any;
  t.is(o.metadata.name, 'widgets.example.com');
  t.is(o.metadata.creationTimestamp.seconds, Date.parse(t0) / 1000);
  t.is(o.spec.names.listKind, 'WidgetList');
  const v1 = o.spec.versions[0];
  const schema = v1.schema.openAPIV3Schema;
  t.is(schema.schema, 'http://json-schema.org/draft-04/schema#');
  const spec = schema.properties.spec;
  t.is(Buffer.from(spec.default.raw, 'base64').toString(), '{"size":1}');
  t.is(spec.properties.size.maximum, 10.5);
  t.is(spec.properties.size.exclusiveMaximum, true);
  // A JSON null element is a JSON{} with a nil Raw: no bytes at all.
  t.deepEqual(spec.properties.color.enum.map((e: { raw?: string }) => (e.raw ? Buffer.from(e.raw, 'base64').toString() : undefined)), ['"red"', '"blue"', undefined]);
  t.is(spec.properties.tags.items.schema.type, 'string');
  t.is(spec.properties.tags.xKubernetesListType, 'set');
  t.deepEqual(spec.properties.pair.items.jSONSchemas.map((s: { type: string }) => s.type), ['string', 'integer']);
  t.deepEqual(spec.properties.pair.additionalItems, { allows: false });
  t.is(spec.properties.labels.additionalProperties.allows, true);
  t.is(spec.properties.labels.additionalProperties.schema.type, 'string');
  t.deepEqual(spec.properties.open.additionalProperties, { allows: true });
  t.is(spec.properties.ref.ref, '#/definitions/thing');
  t.is(spec.properties.embedded.xKubernetesPreserveUnknownFields, false, 'a *bool false is kept');
  t.deepEqual(spec.dependencies.a.property, ['b', 'c']);
  t.deepEqual(spec.dependencies.d.schema.required, ['e']);
  t.is(spec.xKubernetesValidations[0].fieldPath, '.size');
  t.is(spec.xKubernetesValidations[1].optionalOldSelf, false);
  t.is(v1.subresources.scale.labelSelectorPath, '.status.selector');
  t.deepEqual(v1.selectableFields, [{ jsonPath: '.spec.color' }]);
  t.is(o.spec.conversion.webhook.clientConfig.service.port, 8443);
  t.is(Buffer.from(o.spec.conversion.webhook.clientConfig.caBundle, 'base64').toString(), 'PEM');
  t.is(o.status.conditions[1].type, 'Established');
});

test('an independent reading of webhook configurations: inline rules, capitalised field names, pointers', (t) => {
  const o = toObject(pb('k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration'), rawOf(codec.encode(vwc))) as any;
  const w = o.Webhooks[0];
  t.is(w.name, 'check.example.com');
  t.deepEqual(w.rules[0], { operations: ['CREATE'], rule: { apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], scope: 'Namespaced' } });
  t.is(w.timeoutSeconds, 0, 'a *int32 zero is written');
  t.is(w.sideEffects, 'None');
  t.deepEqual(w.namespaceSelector, {});
  const p = toObject(pb('k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicy'), rawOf(codec.encode(vap))) as any;
  t.deepEqual(p.spec.validations[0].Expression, 'object.spec.replicas <= 5');
  t.deepEqual(p.spec.variables[0], { Name: 'replicas', Expression: 'object.spec.replicas' });
  t.deepEqual(p.spec.matchConstraints.resourceRules[0], {
    resourceNames: ['x'],
    ruleWithOperations: { operations: ['CREATE', 'UPDATE'], rule: { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: '*' } },
  });
  t.is(p.status.conditions[0].observedGeneration, 2);
});

test('an independent reading of a ConfigMap and a Secret: data bytes on the wire, the *bool immutable, kube\'s field numbers', (t) => {
  const cm = pb('k8s.io.api.core.v1.ConfigMap').decode(rawOf(codec.encode(configMap))) as any;
  t.is(cm.immutable, false, 'a *bool false is written');
  t.deepEqual(cm.data, { 'a.conf': 'x=1', b: '' });
  t.deepEqual([...cm.binaryData.raw], [0, 0xff]);
  const s = pb('k8s.io.api.core.v1.Secret').decode(rawOf(codec.encode(secret))) as any;
  t.is(Buffer.from(s.data['tls.crt']).toString(), 'cert');
  t.is(s.data['tls.key'].length, 0);
  t.is(s.type, 'kubernetes.io/tls');
  t.is(s.immutable, true);
  const fields = pb('k8s.io.api.core.v1.Secret').fields;
  t.deepEqual(
    Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.id])),
    { metadata: 1, immutable: 5, data: 2, stringData: 4, type: 3 },
  );
  // A Secret without immutable (a nil *bool) has none on the wire and reads back without it.
  const { immutable: _i, ...mutable } = secret;
  t.false('immutable' in roundTrip(mutable));
});

test('an independent reading of mutating admission policies, in each version: kube\'s field numbers', (t) => {
  for (const version of ['v1', 'v1beta1', 'v1alpha1']) {
    const policy = { kind: 'MutatingAdmissionPolicy', apiVersion: `admissionregistration.k8s.io/${version}`, metadata: { name: 'm' }, spec: mapSpec };
    const o = toObject(pb(`k8s.io.api.admissionregistration.${version}.MutatingAdmissionPolicy`), rawOf(codec.encode(policy))) as any;
    t.deepEqual(o.spec.mutations, [
      { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{}' } },
      { patchType: 'JSONPatch', jsonPatch: { expression: '[]' } },
    ]);
    t.deepEqual(o.spec.variables, [{ Name: 'env', Expression: 'object.metadata.name' }]);
    t.is(o.spec.reinvocationPolicy, 'IfNeeded');
  }
  // Mutation{patchType: "JSONPatch"} by hand: field 2 (patchType), field 4 (jsonPatch) holding field 1 (expression)
  const spec = { mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[]' } }] };
  const raw = Buffer.from(rawOf(codec.encode({ kind: 'MutatingAdmissionPolicy', apiVersion: 'admissionregistration.k8s.io/v1', metadata: {}, spec })));
  const mutation = Buffer.concat([Buffer.from([0x12, 9]), Buffer.from('JSONPatch'), Buffer.from([0x22, 4, 0x0a, 2]), Buffer.from('[]')]);
  t.true(raw.includes(Buffer.concat([Buffer.from([0x22, mutation.length]), mutation])), raw.toString('hex'));
});

test('meta.k8s.io/v1beta1 PartialObjectMetadataList numbers its fields the other way round from v1', (t) => {
  const list = (apiVersion: string) => ({ kind: 'PartialObjectMetadataList', apiVersion, metadata: { resourceVersion: '9' }, items: [{ metadata: { name: 'a' } }] });
  const v1 = rawOf(codec.encode(list('meta.k8s.io/v1')));
  const v1beta1 = rawOf(codec.encode(list('meta.k8s.io/v1beta1')));
  t.is(v1[0], 0x0a, 'v1: metadata is field 1');
  t.is(v1beta1[0], 0x0a, 'v1beta1: items is field 1 (written first)');
  const b = toObject(pb('k8s.io.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList'), v1beta1) as any;
  t.is(b.metadata.resourceVersion, '9');
  t.is(b.items[0].metadata.name, 'a');
  t.not(Buffer.from(v1).toString('hex'), Buffer.from(v1beta1).toString('hex'));
});

test('bytes built by the independent writer decode to kube JSON (APIResourceList with nil and empty verbs)', (t) => {
  const type = pb('k8s.io.apimachinery.pkg.apis.meta.v1.APIResourceList');
  const raw = type
    .encode(
      type.fromObject({
        groupVersion: 'v1',
        resources: [
          { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: { items: ['create', 'get'] }, shortNames: ['ns'] },
          { name: 'namespaces/finalize', kind: 'Namespace', verbs: {} },
          { name: 'bindings', kind: 'Binding' },
        ],
      }),
    )
    .finish();
  const body = Buffer.concat([Buffer.from('k8s\0', 'latin1'), pb('k8s.io.apimachinery.pkg.runtime.Unknown').encode({ typeMeta: { apiVersion: 'v1', kind: 'APIResourceList' }, raw }).finish()]);
  t.deepEqual(codec.decode(body, { apiVersion: 'v1', kind: 'APIResourceList' }), {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'v1',
    resources: [
      { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['create', 'get'], shortNames: ['ns'] },
      { name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: [] },
      { name: 'bindings', singularName: '', namespaced: false, kind: 'Binding', verbs: null },
    ],
  });
});

// ---- Go's JSON rules on decoding ------------------------------------------------------------------------------------

test('decoding drops zero non-pointer omitempty fields, keeps pointer zeros and required zeros (as kube JSON would)', (t) => {
  // What a Go client sends for a minimal webhook configuration: every non-pointer field, zero or not.
  const type = pb('k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration');
  const raw = type
    .encode({
      metadata: { name: 'v', generateName: '', namespace: '', selfLink: '', uid: '', resourceVersion: '', generation: 0, creationTimestamp: {} },
      Webhooks: [
        {
          name: 'w',
          clientConfig: { url: 'https://x', caBundle: new Uint8Array(0) },
          rules: [{ operations: [], rule: { apiGroups: [], apiVersions: [], resources: [] } }],
          timeoutSeconds: 0,
          sideEffects: 'None',
        },
        { name: '', clientConfig: {} },
      ],
    })
    .finish();
  const body = Buffer.concat([Buffer.from('k8s\0', 'latin1'), pb('k8s.io.apimachinery.pkg.runtime.Unknown').encode({ raw }).finish()]);
  const expected = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration' };
  t.deepEqual(codec.decode(body, expected), {
    ...expected,
    metadata: { name: 'v', creationTimestamp: null },
    webhooks: [
      { name: 'w', clientConfig: { url: 'https://x' }, rules: [{}], sideEffects: 'None', timeoutSeconds: 0, admissionReviewVersions: null },
      { name: '', clientConfig: {}, sideEffects: null, admissionReviewVersions: null },
    ],
  });
});

test('CRD status and names keep their required fields; an empty versions list reads as null as Go prints it', (t) => {
  const o = roundTrip({ kind: 'CustomResourceDefinition', apiVersion: 'apiextensions.k8s.io/v1', metadata: { name: 'x' }, spec: {} });
  t.deepEqual(o, {
    kind: 'CustomResourceDefinition',
    apiVersion: 'apiextensions.k8s.io/v1',
    metadata: { name: 'x', creationTimestamp: null },
    spec: { group: '', names: { plural: '', kind: '' }, scope: '', versions: null },
    status: { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: null },
  });
});

test('encoding writes what the JSON has: pointer fields only when present, null is absent', (t) => {
  const absent = toObject(pb('k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions'), rawOf(codec.encode({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: null })));
  t.deepEqual(absent, {});
  const zero = toObject(pb('k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions'), rawOf(codec.encode({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, orphanDependents: false })));
  t.deepEqual(zero, { gracePeriodSeconds: 0, orphanDependents: false });
});

test('encoding refuses values of the wrong JSON type with a 500 naming the field', (t) => {
  const bad = (o: Obj) => t.throws(() => codec.encode(o), { instanceOf: ApiError })!;
  const e1 = bad({ ...crd, spec: { ...(crd.spec as Obj), versions: [{ name: 'v1', served: 'yes' }] } });
  t.is(e1.code, 500);
  t.regex(e1.message, /spec\.versions\[0\]\.served: must be a boolean, not string/);
  t.regex(bad({ ...vwc, webhooks: [{ ...webhook, timeoutSeconds: 2 ** 31 }] }).message, /webhooks\[0\]\.timeoutSeconds: 2147483648 overflows int32/);
  t.regex(bad({ ...vwc, webhooks: [{ ...webhook, clientConfig: { caBundle: 'not base64!' } }] }).message, /caBundle: illegal base64 data/);
  t.regex(bad({ ...namespace, metadata: { labels: { a: 1 } } }).message, /metadata\.labels\["a"\]: must be a string, not number/);
  t.regex(bad({ ...crd, spec: { versions: [{ schema: { openAPIV3Schema: { additionalProperties: 'x' } } }] } }).message, /additionalProperties: boolean or JSON schema expected/);
});

// ---- hand-computed bytes of kube-apiserver's answers ------------------------------------------------------------------

type Bytes = number[];
function varint(n: number): Bytes {
  const out: Bytes = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const ld = (field: number, ...parts: Bytes[]): Bytes => {
  const body = parts.flat();
  return [...varint(field * 8 + 2), ...varint(body.length), ...body];
};
const str = (field: number, text: string): Bytes => ld(field, [...Buffer.from(text)]);
const num = (field: number, n: number): Bytes => [...varint(field * 8), ...varint(n)];
const envelope = (apiVersion: string, kind: string, raw: Bytes) =>
  Buffer.from([0x6b, 0x38, 0x73, 0x00, ...ld(1, str(1, apiVersion), str(2, kind)), ...ld(2, raw), ...str(3, ''), ...str(4, '')]);

test('a Namespace as kube-apiserver writes it, byte for byte', (t) => {
  const secs = Date.parse(t0) / 1000;
  const fields = '{"f:metadata":{"f:labels":{".":{},"f:kubernetes.io/metadata.name":{}}}}';
  const ns = {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: {
      name: 'default',
      uid: '3d0c7a33-4a1e-4f1b-9c55-0c5a3c1f0f00',
      resourceVersion: '42',
      creationTimestamp: t0,
      labels: { 'kubernetes.io/metadata.name': 'default' },
      managedFields: [{ manager: 'kube-apiserver', operation: 'Update', apiVersion: 'v1', time: t0, fieldsType: 'FieldsV1', fieldsV1: JSON.parse(fields) }],
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
  // Go's marshaller: every non-pointer field in field-number order (empty strings and zero ints too), Time as
  // {seconds, nanos}, pointers (deletionTimestamp, ...) left out, map entries sorted.
  const expected = envelope('v1', 'Namespace', [
    ...ld(
      1,
      str(1, 'default'),
      str(2, ''),
      str(3, ''),
      str(4, ''),
      str(5, '3d0c7a33-4a1e-4f1b-9c55-0c5a3c1f0f00'),
      str(6, '42'),
      num(7, 0),
      ld(8, num(1, secs), num(2, 0)),
      ld(11, str(1, 'kubernetes.io/metadata.name'), str(2, 'default')),
      ld(17, str(1, 'kube-apiserver'), str(2, 'Update'), str(3, 'v1'), ld(4, num(1, secs), num(2, 0)), str(6, 'FieldsV1'), ld(7, str(1, fields)), str(8, '')),
    ),
    ...ld(2, str(1, 'kubernetes')),
    ...ld(3, str(1, 'Active')),
  ]);
  t.is(codec.encode(ns).toString('hex'), expected.toString('hex'));
  t.deepEqual(codec.decode(expected, { apiVersion: 'v1', kind: 'Namespace' }), ns);
});

test('a NotFound Status as kube-apiserver writes it, byte for byte', (t) => {
  const notFound = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'namespaces "nope" not found',
    reason: 'NotFound',
    details: { name: 'nope', kind: 'namespaces' },
    code: 404,
  };
  const expected = envelope('v1', 'Status', [
    ...ld(1, str(1, ''), str(2, ''), str(3, '')),
    ...str(2, 'Failure'),
    ...str(3, 'namespaces "nope" not found'),
    ...str(4, 'NotFound'),
    ...ld(5, str(1, 'nope'), str(2, ''), str(3, 'namespaces'), num(5, 0), str(6, '')),
    ...num(6, 404),
  ]);
  t.is(codec.encode(notFound).toString('hex'), expected.toString('hex'));
  t.deepEqual(codec.decode(expected, { apiVersion: 'v1', kind: 'Status' }), notFound);
});
