// MutatingAdmissionPolicy test helpers: the resources' paths in a served version, policy and binding bodies.
import { suffix, widget, widgetsPath, type TestResponse, type TestServer } from './test-server.js';
import { widgetRules } from './vap.js';

export const MAP_VERSIONS = ['v1', 'v1beta1', 'v1alpha1'] as const;

export const mapPath = (version: string) => `/apis/admissionregistration.k8s.io/${version}/mutatingadmissionpolicies`;
export const mapbPath = (version: string) => `/apis/admissionregistration.k8s.io/${version}/mutatingadmissionpolicybindings`;

/** A policy on widget creates and updates that sets a label with an apply configuration. */
export function mutatingPolicy(name: string, spec: Record<string, unknown> = {}, version = 'v1') {
  return {
    apiVersion: `admissionregistration.k8s.io/${version}`,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: { resourceRules: widgetRules },
      reinvocationPolicy: 'Never',
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"mutated": "yes"}}}' } }],
      ...spec,
    },
  };
}

export function mutatingBinding(name: string, policyName: string, spec: Record<string, unknown> = {}, version = 'v1') {
  return {
    apiVersion: `admissionregistration.k8s.io/${version}`,
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, ...spec },
  };
}

/**
 * Creates a policy on widgets in the namespaces `namespaceSelector` matches (`spec` overriding mutatingPolicy's) and
 * its binding of the same name, then waits until creating a probe widget in `ns` is answered as `inForce` says.
 */
export async function installMutatingPolicy(
  server: TestServer,
  name: string,
  namespaceSelector: Record<string, unknown>,
  spec: Record<string, unknown>,
  probe: { ns: string; inForce: (res: TestResponse) => boolean },
  bindingSpec: Record<string, unknown> = {},
): Promise<void> {
  const policy = mutatingPolicy(name, { matchConstraints: { namespaceSelector, resourceRules: widgetRules }, ...spec });
  const pr = await server.request('POST', mapPath('v1'), { body: policy });
  if (pr.status !== 201) throw new Error(`policy ${name}: ${pr.status} ${pr.text}`);
  const br = await server.request('POST', mapbPath('v1'), { body: mutatingBinding(name, name, bindingSpec) });
  if (br.status !== 201) throw new Error(`binding ${name}: ${br.status} ${br.text}`);
  const create = () => server.request('POST', `${widgetsPath(probe.ns)}?dryRun=All`, { body: widget(`probe-${suffix()}`) });
  await server.waitFor(async () => probe.inForce(await create()), 10_000, `policy ${name} in force`);
}
