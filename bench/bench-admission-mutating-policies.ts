import type { AdmissionVariant } from './admission-variant.js';
import { expectStatus, type HttpsClient } from './https-client.js';
import { widget, widgetsCollectionPath } from './widgets.js';

const api = '/apis/admissionregistration.k8s.io/v1';
const rules = [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['widgets'] }];

/** Three mutations of the kind people write: a label and an annotation (ApplyConfiguration), a default (JSONPatch). */
const policies: { name: string; mutation: Record<string, unknown> }[] = [
  { name: 'bench-team-label', mutation: { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"team": "bench"}}}' } } },
  { name: 'bench-owner-annotation', mutation: { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{annotations: {"owner": object.metadata.name}}}' } } },
  {
    name: 'bench-default-color',
    mutation: {
      patchType: 'JSONPatch',
      jsonPatch: { expression: 'has(object.spec.color) ? [] : [JSONPatch{op: "add", path: "/spec/color", value: "blue"}]' },
    },
  },
];

async function setup(client: HttpsClient): Promise<void> {
  for (const p of policies) {
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: p.name },
      spec: { matchConstraints: { resourceRules: rules }, mutations: [p.mutation], reinvocationPolicy: 'Never' },
    };
    expectStatus(await client.request('POST', `${api}/mutatingadmissionpolicies`, policy), [201, 409], `create policy ${p.name}`);
    const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: p.name }, spec: { policyName: p.name } };
    expectStatus(await client.request('POST', `${api}/mutatingadmissionpolicybindings`, binding), [201, 409], `create binding ${p.name}`);
  }
  // the policies are in force once a created widget carries all three mutations
  const deadline = Date.now() + 30_000;
  for (let i = 0; ; i++) {
    const res = await client.request('POST', widgetsCollectionPath, { ...widget(`probe-${i}`), spec: { replicas: 1 } });
    const created = JSON.parse(res.body.toString()) as { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: { color?: string } };
    if (created.metadata?.labels?.team === 'bench' && created.metadata.annotations?.owner && created.spec?.color === 'blue') return;
    if (Date.now() > deadline) throw new Error('MutatingAdmissionPolicies not in force after 30 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates with three MutatingAdmissionPolicies bound to widgets (the built-in MutatingAdmissionPolicy plugin). */
export const mutatingPoliciesVariant: AdmissionVariant = {
  key: 'mutating-policies',
  title: '3 MutatingAdmissionPolicies',
  start: async () => ({ setup, stop: async () => {} }),
};
