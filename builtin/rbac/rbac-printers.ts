import { NAME_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, type TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';
import type { Binding } from './rbac-types.js';

/** kube's Role and ClusterRole printer (`kubectl get clusterroles`: NAME, CREATED AT as RFC 3339 in UTC). */
export const roleTablePrinter: TablePrinter = {
  columnDefinitions: [NAME_COLUMN, { name: 'Created At', type: 'date', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 }],
  cells: (obj) => [obj.metadata?.name ?? '', obj.metadata?.creationTimestamp ?? ''],
};

const roleRefDescription = 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.';
const clusterRoleRefDescription = 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.';

/** kube's binding printers: NAME, ROLE (Kind/name), AGE; wide adds USERS, GROUPS, SERVICEACCOUNTS (namespace/name). */
function bindingPrinter(what: 'roleBinding' | 'clusterRoleBinding', roleRef: string): TablePrinter {
  return {
    columnDefinitions: [
      NAME_COLUMN,
      { name: 'Role', type: 'string', format: '', description: roleRef, priority: 0 },
      { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
      { name: 'Users', type: 'string', format: '', description: `Users in the ${what}`, priority: 1 },
      { name: 'Groups', type: 'string', format: '', description: `Groups in the ${what}`, priority: 1 },
      { name: 'ServiceAccounts', type: 'string', format: '', description: `ServiceAccounts in the ${what}`, priority: 1 },
    ],
    cells: (obj, now) => {
      const b = obj as Binding;
      const subjects = b.subjects ?? [];
      const of = (kind: string) => subjects.filter((s) => s.kind === kind);
      return [
        b.metadata?.name ?? '',
        `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`,
        age(b.metadata?.creationTimestamp, now),
        of('User').map((s) => s.name).join(', '),
        of('Group').map((s) => s.name).join(', '),
        of('ServiceAccount').map((s) => `${s.namespace ?? ''}/${s.name}`).join(', '),
      ];
    },
  };
}

export const roleBindingTablePrinter = bindingPrinter('roleBinding', roleRefDescription);
export const clusterRoleBindingTablePrinter = bindingPrinter('clusterRoleBinding', clusterRoleRefDescription);
