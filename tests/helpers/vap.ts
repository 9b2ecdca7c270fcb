// ValidatingAdmissionPolicy test helpers: policy and binding bodies, a namespace a test's policies are scoped to.
import { suffix, type TestServer } from './test-server.js';

export const VAP = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
export const VAPB = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';

export const widgetRules = [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['widgets'] }];

/** A policy on widget creates and updates in namespaces matching `namespaceSelector`. */
export function policy(name: string, namespaceSelector: Record<string, unknown>, spec: Record<string, unknown>) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: { matchConstraints: { namespaceSelector, resourceRules: widgetRules }, ...spec },
  };
}

export function binding(name: string, policyName: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, validationActions: ['Deny'], ...spec },
  };
}

/** A namespace labelled `vap-test: <id>`, and the selector that matches only it. */
export async function scopedNamespace(server: TestServer, prefix: string, labels: Record<string, string> = {}) {
  const id = suffix();
  const ns = `${prefix}-${id}`;
  const res = await server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'vap-test': id, ...labels } } } });
  if (res.status !== 201) throw new Error(`namespace ${ns}: ${res.status} ${res.text}`);
  return { ns, id, selector: { matchLabels: { 'vap-test': id } } };
}

/** Creates a policy and its binding, then waits until `probe` shows the policy is in force. */
export async function installPolicy(server: TestServer, p: { metadata: { name: string } }, b: unknown, probe: () => Promise<boolean>): Promise<void> {
  const pr = await server.request('POST', VAP, { body: p });
  if (pr.status !== 201) throw new Error(`policy ${p.metadata.name}: ${pr.status} ${pr.text}`);
  const br = await server.request('POST', VAPB, { body: b });
  if (br.status !== 201) throw new Error(`binding: ${br.status} ${br.text}`);
  await server.waitFor(probe, 10_000, `policy ${p.metadata.name} in force`);
}
