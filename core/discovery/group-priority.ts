/**
 * kube-apiserver's group priorities (APIService groupPriorityMinimum of the built-in groups), which order the groups
 * of /apis. Groups not listed get 1000, the priority kube gives CRD groups; equal priorities sort by name.
 */
const builtinGroupPriority: Record<string, number> = {
  '': 18000,
  'apiregistration.k8s.io': 18000,
  apps: 17800,
  'events.k8s.io': 17750,
  'authentication.k8s.io': 17700,
  'authorization.k8s.io': 17600,
  autoscaling: 17500,
  batch: 17400,
  'certificates.k8s.io': 17300,
  'networking.k8s.io': 17200,
  policy: 17100,
  'rbac.authorization.k8s.io': 17000,
  'storage.k8s.io': 16800,
  'admissionregistration.k8s.io': 16700,
  'apiextensions.k8s.io': 16700,
  'scheduling.k8s.io': 16600,
  'coordination.k8s.io': 16500,
  'node.k8s.io': 16300,
  'discovery.k8s.io': 16200,
  'flowcontrol.apiserver.k8s.io': 16100,
  'internal.apiserver.k8s.io': 16000,
  'resource.k8s.io': 15900,
  'storagemigration.k8s.io': 15800,
};

const defaultGroupPriority = 1000;

/** Orders group names as kube-apiserver lists them (negative when `a` comes first); the core group '' is first. */
export function compareGroupPriority(a: string, b: string): number {
  const pa = builtinGroupPriority[a] ?? defaultGroupPriority;
  const pb = builtinGroupPriority[b] ?? defaultGroupPriority;
  return pb - pa || (a < b ? -1 : a > b ? 1 : 0);
}
