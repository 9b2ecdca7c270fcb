import type { AdmissionVariant } from './admission-variant.js';
import { expectStatus, type HttpsClient } from './https-client.js';
import { widget, widgetsCollectionPath } from './widgets.js';

const api = '/apis/admissionregistration.k8s.io/v1';
const rules = [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['widgets'] }];

/** Three policies of the kind people write (a bound, an enum, a name rule), each with a Deny binding; widgets pass. */
const policies: { name: string; validations: { expression: string; message: string }[] }[] = [
  { name: 'bench-replicas', validations: [{ expression: 'object.spec.replicas <= 10', message: 'at most 10 replicas' }] },
  { name: 'bench-color', validations: [{ expression: "has(object.spec.color) && object.spec.color in ['red', 'green', 'blue']", message: 'a primary color' }] },
  { name: 'bench-name', validations: [{ expression: "object.metadata.name.size() < 64 && !object.metadata.name.startsWith('forbidden-')", message: 'a proper name' }] },
];

async function setup(client: HttpsClient): Promise<void> {
  for (const p of policies) {
    const policy = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: p.name }, spec: { matchConstraints: { resourceRules: rules }, validations: p.validations } };
    expectStatus(await client.request('POST', `${api}/validatingadmissionpolicies`, policy), [201, 409], `create policy ${p.name}`);
    const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: p.name }, spec: { policyName: p.name, validationActions: ['Deny'] } };
    expectStatus(await client.request('POST', `${api}/validatingadmissionpolicybindings`, binding), [201, 409], `create binding ${p.name}`);
  }
  // the policies are in force once a widget breaking the first one is refused
  const deadline = Date.now() + 30_000;
  for (let i = 0; ; i++) {
    const probe = { ...widget(`probe-${i}`), spec: { color: 'blue', replicas: 100 } };
    if ((await client.request('POST', widgetsCollectionPath, probe)).status === 422) return;
    if (Date.now() > deadline) throw new Error('ValidatingAdmissionPolicies not in force after 30 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates with three ValidatingAdmissionPolicies bound to widgets (the built-in ValidatingAdmissionPolicy plugin). */
export const policiesVariant: AdmissionVariant = {
  key: 'policies',
  title: '3 ValidatingAdmissionPolicies',
  start: async () => ({ setup, stop: async () => {} }),
};
