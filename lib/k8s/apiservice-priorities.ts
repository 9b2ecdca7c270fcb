/** An APIService's place in discovery: its group's among groups (highest first), its version's inside the group. */
export interface APIServicePriority {
  groupPriorityMinimum: number;
  versionPriority: number;
}

/**
 * kube-apiserver's priorities for the local APIServices of its built-in group-versions (the aggregator's table), by
 * `group/version` (`/v1` for the core group).
 */
const builtinVersionPriorities: Record<string, APIServicePriority> = Object.fromEntries(
  (
    [
      ['', 'v1', 18000, 1],
      ['apiregistration.k8s.io', 'v1', 18000, 15],
      ['apps', 'v1', 17800, 15],
      ['events.k8s.io', 'v1', 17750, 15],
      ['authentication.k8s.io', 'v1', 17700, 15],
      ['authorization.k8s.io', 'v1', 17600, 15],
      ['autoscaling', 'v2', 17500, 30],
      ['autoscaling', 'v1', 17500, 15],
      ['batch', 'v1', 17400, 15],
      ['certificates.k8s.io', 'v1', 17300, 15],
      ['networking.k8s.io', 'v1', 17200, 15],
      ['policy', 'v1', 17100, 15],
      ['rbac.authorization.k8s.io', 'v1', 17000, 15],
      ['storage.k8s.io', 'v1', 16800, 15],
      ['admissionregistration.k8s.io', 'v1', 16700, 15],
      ['admissionregistration.k8s.io', 'v1beta1', 16700, 12],
      ['admissionregistration.k8s.io', 'v1alpha1', 16700, 9],
      ['apiextensions.k8s.io', 'v1', 16700, 15],
      ['scheduling.k8s.io', 'v1', 16600, 15],
      ['coordination.k8s.io', 'v1', 16500, 15],
      ['node.k8s.io', 'v1', 16300, 15],
      ['discovery.k8s.io', 'v1', 16200, 15],
      ['flowcontrol.apiserver.k8s.io', 'v1', 16100, 21],
      ['internal.apiserver.k8s.io', 'v1alpha1', 16000, 9],
      ['storagemigration.k8s.io', 'v1alpha1', 15800, 9],
    ] as const
  ).map(([group, version, groupPriorityMinimum, versionPriority]) => [`${group}/${version}`, { groupPriorityMinimum, versionPriority }]),
);

const builtinGroupPriorities = new Map(Object.entries(builtinVersionPriorities).map(([gv, p]) => [gv.slice(0, gv.lastIndexOf('/')), p.groupPriorityMinimum]));

/**
 * What kube's CRD registration gives every served version of a custom resource: a low group priority, and one version
 * priority for all, so that versions sort by their names (v2 before v1 before v1beta1).
 */
export const customResourcePriority: APIServicePriority = { groupPriorityMinimum: 1000, versionPriority: 100 };

/**
 * The priority of a group-version a server serves itself that no CRD defines: kube-apiserver's for its built-in ones;
 * for others (a group of a server's own storage) that of custom resources, within the group's built-in priority if
 * the group has one.
 */
export function localAPIServicePriority(group: string, version: string): APIServicePriority {
  return (
    builtinVersionPriorities[`${group}/${version}`] ?? {
      groupPriorityMinimum: builtinGroupPriorities.get(group) ?? customResourcePriority.groupPriorityMinimum,
      versionPriority: customResourcePriority.versionPriority,
    }
  );
}
