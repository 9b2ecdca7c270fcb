/**
 * A seeded fuzz run over the other built-in kinds (Namespaces, ConfigMaps, Secrets, Validating- and
 * MutatingAdmissionPolicies and their bindings, webhook configurations, Leases, Events of both groups, APIServices):
 * mutated bodies and merge patches are answered 2xx or 4xx, and a refused create stores nothing.
 */
import test from 'ava';
import { useTestServer } from '../helpers/test-server.js';
import { expect2xxOr4xx, mutate, random } from '../helpers/fuzz.js';

const server = useTestServer({ storage: 'memory' });
const group = 'admissionregistration.k8s.io';
const apiVersion = `${group}/v1`;

const rules = () => [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['widgets'], scope: '*' }];
const selector = () => ({ matchLabels: { a: 'b' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] });
const matchResources = () => ({ namespaceSelector: selector(), objectSelector: selector(), resourceRules: rules(), excludeResourceRules: rules(), matchPolicy: 'Equivalent' });

/** A valid body of each kind, by collection path. */
const kinds: Record<string, (name: string) => any> = {
  '/api/v1/namespaces': (name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { a: 'b' }, annotations: { c: 'd' }, finalizers: ['example.com/x'], ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u' }] },
    spec: { finalizers: ['kubernetes'] },
  }),
  '/api/v1/namespaces/default/configmaps': (name) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    immutable: false,
    data: { 'a.conf': 'x', b: '' },
    binaryData: { c: 'AAE=' },
  }),
  '/api/v1/namespaces/default/secrets': (name) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') },
    stringData: { extra: 'x' },
  }),
  [`/apis/${apiVersion}/validatingadmissionpolicies`]: (name) => ({
    apiVersion,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      failurePolicy: 'Fail',
      matchConstraints: matchResources(),
      validations: [{ expression: 'object.spec.x > 1', message: 'm', reason: 'Invalid', messageExpression: "'x'" }],
      auditAnnotations: [{ key: 'k', valueExpression: "'v'" }],
      matchConditions: [{ name: 'c', expression: 'true' }],
      variables: [{ name: 'v', expression: '1' }],
    },
  }),
  [`/apis/${apiVersion}/validatingadmissionpolicybindings`]: (name) => ({
    apiVersion,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName: 'p', paramRef: { name: 'x', namespace: 'default', parameterNotFoundAction: 'Deny' }, matchResources: matchResources(), validationActions: ['Deny', 'Audit'] },
  }),
  [`/apis/${apiVersion}/mutatingadmissionpolicies`]: (name) => ({
    apiVersion,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      failurePolicy: 'Fail',
      reinvocationPolicy: 'IfNeeded',
      matchConstraints: matchResources(),
      variables: [{ name: 'v', expression: '1' }],
      mutations: [
        { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}' } },
        { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/spec/x", value: 1}]' } },
      ],
      matchConditions: [{ name: 'c', expression: 'true' }],
    },
  }),
  [`/apis/${apiVersion}/mutatingadmissionpolicybindings`]: (name) => ({
    apiVersion,
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName: 'p', paramRef: { selector: selector(), parameterNotFoundAction: 'Allow' }, matchResources: matchResources() },
  }),
  [`/apis/${apiVersion}/validatingwebhookconfigurations`]: (name) => ({
    apiVersion,
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks: [
      {
        name: 'a.b.c',
        clientConfig: { url: 'https://x.example.com/p', caBundle: 'YWJj' },
        rules: rules(),
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        timeoutSeconds: 5,
        namespaceSelector: selector(),
        matchConditions: [{ name: 'c', expression: 'true' }],
      },
    ],
  }),
  [`/apis/${apiVersion}/mutatingwebhookconfigurations`]: (name) => ({
    apiVersion,
    kind: 'MutatingWebhookConfiguration',
    metadata: { name },
    webhooks: [
      {
        name: 'a.b.c',
        clientConfig: { service: { namespace: 'default', name: 's', path: '/p', port: 443 } },
        rules: rules(),
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        reinvocationPolicy: 'Never',
      },
    ],
  }),
  '/apis/coordination.k8s.io/v1/namespaces/kube-public/leases': (name) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name },
    spec: { holderIdentity: 'a', leaseDurationSeconds: 10, acquireTime: '2026-01-01T00:00:00.000000Z', renewTime: '2026-01-01T00:00:01.000000Z', leaseTransitions: 1 },
  }),
  // Both Event APIs store the same objects: each fuzzes its own namespace, so their counts stay apart.
  '/api/v1/namespaces/default/events': (name) => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'p', uid: 'u', apiVersion: 'v1', fieldPath: 'spec' },
    reason: 'R',
    message: 'm',
    source: { component: 'c', host: 'h' },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:00:00Z',
    count: 1,
    type: 'Normal',
    related: { kind: 'Node', name: 'n' },
  }),
  '/apis/events.k8s.io/v1/namespaces/kube-system/events': (name) => ({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: '2026-01-01T00:00:00.000000Z',
    series: { count: 2, lastObservedTime: '2026-01-01T00:00:01.000000Z' },
    reportingController: 'example.com/c',
    reportingInstance: 'i',
    action: 'A',
    reason: 'R',
    regarding: { kind: 'Pod', namespace: 'kube-system', name: 'p' },
    note: 'n',
    type: 'Warning',
  }),
  // an APIService's name is `version.group`: the group is made of the name the run gives
  '/apis/apiregistration.k8s.io/v1/apiservices': (name) => {
    const full = name.startsWith('v1.') ? name : `v1.${name}.example.com`;
    return {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: full, labels: { a: 'b' } },
      spec: {
        group: full.slice('v1.'.length),
        version: 'v1',
        groupPriorityMinimum: 100,
        versionPriority: 10,
        caBundle: Buffer.from('PEM').toString('base64'),
        service: { namespace: 'ns', name: 'svc', port: 8443 },
      },
      status: { conditions: [{ type: 'Available', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Passed', message: 'all checks passed' }] },
    };
  },
};

const count = async (path: string) => (await server.request('GET', path)).body.items.length as number;

for (const [path, valid] of Object.entries(kinds)) {
  test(`mutated bodies and merge patches of ${path} are answered 2xx or 4xx, and a refused create stores nothing`, async (t) => {
    const next = random(path.length);
    for (let i = 0; i < 80; i++) {
      const body = valid(`fuzz-${i}`);
      mutate(next, body);
      const before = await count(path);
      const res = await server.request('POST', path, { body });
      expect2xxOr4xx(t, res, `create ${JSON.stringify(body)}`);
      if (res.status >= 300) {
        t.is(await count(path), before, `refused create was stored: ${JSON.stringify(body)}`);
        continue;
      }
      const patch = valid(res.body.metadata.name);
      mutate(next, patch);
      const patched = await server.request('PATCH', `${path}/${res.body.metadata.name}`, { body: patch, contentType: 'application/merge-patch+json' });
      expect2xxOr4xx(t, patched, `patch ${JSON.stringify(patch)}`);
    }
  });
}
