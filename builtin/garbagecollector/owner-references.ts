import type { ObjectClients } from '../../core/contracts/object-client.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import { FINALIZER_DELETE_DEPENDENTS } from '../../lib/k8s/finalizers.js';
import type { OwnerLink } from './dependency-graph.js';

/** An owner of a kind kapi does not serve (yet: a CRD may come): the dependent is left alone and looked at later. */
export class UnresolvableOwnerError extends Error {}

/**
 * A cluster-scoped dependent naming a namespaced kind as its owner: a reference that can never be valid, so the
 * dependent is left alone for good (kube's namespacedOwnerOfClusterScopedObjectErr).
 */
export class NamespacedOwnerOfClusterScopedObjectError extends Error {}

/** kube's OwnerRefInvalidNamespace message about a dependent in `namespace` ('' when cluster-scoped). */
export function invalidNamespaceMessage(namespace: string, ref: OwnerLink): string {
  return `ownerRef [${ref.apiVersion}/${ref.kind}, namespace: ${namespace}, name: ${ref.name}, uid: ${ref.uid}] does not exist in namespace "${namespace}"`;
}

/** How the collector sees one owner of a dependent (kube's classifyReferences). */
export type OwnerState =
  /** Exists with the referenced uid. */
  | 'solid'
  /** Gone, recreated under another uid, or never there (in the dependent's namespace, for a namespaced kind). */
  | 'dangling'
  /** Exists and is being deleted in the foreground: it waits for its dependents. */
  | 'waiting';

/** The served resource of an owner reference's apiVersion and kind (kube's RESTMapper). */
export function ownerResource(registry: ResourceRegistry, ref: Pick<OwnerLink, 'apiVersion' | 'kind'>): ResourceType | undefined {
  const slash = ref.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  const version = ref.apiVersion.slice(slash + 1);
  return registry.all().find((rt) => rt.group === group && rt.names.kind === ref.kind && rt.versions.some((v) => v.name === version && v.served));
}

/**
 * Reads the owner a dependent (in `namespace`, '' when cluster-scoped) references, live from storage as kube's
 * collector asks the API server: a namespaced owner is looked for in the dependent's own namespace only, so a reference
 * across namespaces never finds its object.
 */
export async function ownerState(registry: ResourceRegistry, objects: ObjectClients, namespace: string, ref: OwnerLink): Promise<OwnerState> {
  const rt = ownerResource(registry, ref);
  if (!rt?.verbs.includes('get')) throw new UnresolvableOwnerError(`no served resource for ${ref.kind} in ${ref.apiVersion} to get`);
  const namespaced = rt.scope === 'Namespaced';
  if (namespaced && namespace === '') {
    throw new NamespacedOwnerOfClusterScopedObjectError(invalidNamespaceMessage(namespace, ref));
  }
  const owner: KubeObject | undefined = await objects.forResource(rt).get(namespaced ? namespace : '', ref.name);
  if (!owner || owner.metadata?.uid !== ref.uid) return 'dangling';
  const meta = owner.metadata;
  return meta.deletionTimestamp && meta.finalizers?.includes(FINALIZER_DELETE_DEPENDENTS) ? 'waiting' : 'solid';
}
