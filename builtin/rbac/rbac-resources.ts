import type { GoStructType } from '../../lib/go/json-decoding.js';
import type { ResourceStrategy, ResourceType } from '../../core/contracts/resource-type.js';
import type { TablePrinter } from '../../core/contracts/table-types.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { clusterRoleBindingGoType, clusterRoleGoType, roleBindingGoType, roleGoType } from './rbac-go-types.js';
import { clusterRoleBindingTablePrinter, roleBindingTablePrinter, roleTablePrinter } from './rbac-printers.js';
import { defaultBinding, validateBinding, validateClusterRole, validateRole } from './rbac-validation.js';
import { rbacGroup, type Binding, type ClusterRole, type Role } from './rbac-types.js';
import type { EscalationCheck } from './escalation-check.js';

interface RbacKind {
  plural: string;
  kind: string;
  scope: ResourceType['scope'];
  schema: string;
  goType: GoStructType;
  printer: TablePrinter;
  strategy: ResourceStrategy;
}

/** What the four kinds share: names are path segments (`system:discovery`), no generation, kube's verbs. */
function rbacResource(k: RbacKind): ResourceType {
  return {
    group: rbacGroup,
    names: { plural: k.plural, singular: k.kind.toLowerCase(), kind: k.kind, listKind: `${k.kind}List` },
    scope: k.scope,
    allowUnconditionalUpdate: true,
    withoutGeneration: true,
    nameValidation: 'path-segment',
    goType: k.goType,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [{ name: 'v1', served: true, storage: true, schema: builtinSchema(k.schema), tablePrinter: k.printer }],
    strategy: k.strategy,
  };
}

/*
 * Each takes the escalation check its writes go through; without one (the type as informers and clients name it)
 * writes are not checked.
 */

export function roleResource(escalation?: EscalationCheck): ResourceType {
  return rbacResource({
    plural: 'roles',
    kind: 'Role',
    scope: 'Namespaced',
    schema: 'role.v1',
    goType: roleGoType,
    printer: roleTablePrinter,
    strategy: {
      validate: (obj) => validateRole(obj as Role),
      ...(escalation ? { authorizeWrite: (obj, old, attrs) => escalation.checkRole(obj as Role, old as Role | undefined, attrs) } : {}),
    },
  });
}

export function clusterRoleResource(escalation?: EscalationCheck): ResourceType {
  return rbacResource({
    plural: 'clusterroles',
    kind: 'ClusterRole',
    scope: 'Cluster',
    schema: 'clusterrole.v1',
    goType: clusterRoleGoType,
    printer: roleTablePrinter,
    strategy: {
      validate: (obj) => validateClusterRole(obj as ClusterRole),
      ...(escalation ? { authorizeWrite: (obj, old, attrs) => escalation.checkRole(obj as ClusterRole, old as ClusterRole | undefined, attrs) } : {}),
    },
  });
}

function bindingStrategy(namespaced: boolean, escalation?: EscalationCheck): ResourceStrategy {
  return {
    prepareForCreate: (obj) => defaultBinding(obj as Binding),
    prepareForUpdate: (obj) => defaultBinding(obj as Binding),
    validate: (obj, old) => validateBinding(obj as Binding, old as Binding | undefined, namespaced),
    ...(escalation ? { authorizeWrite: (obj, old, attrs) => escalation.checkBinding(obj as Binding, old as Binding | undefined, attrs) } : {}),
  };
}

export function roleBindingResource(escalation?: EscalationCheck): ResourceType {
  return rbacResource({
    plural: 'rolebindings',
    kind: 'RoleBinding',
    scope: 'Namespaced',
    schema: 'rolebinding.v1',
    goType: roleBindingGoType,
    printer: roleBindingTablePrinter,
    strategy: bindingStrategy(true, escalation),
  });
}

export function clusterRoleBindingResource(escalation?: EscalationCheck): ResourceType {
  return rbacResource({
    plural: 'clusterrolebindings',
    kind: 'ClusterRoleBinding',
    scope: 'Cluster',
    schema: 'clusterrolebinding.v1',
    goType: clusterRoleBindingGoType,
    printer: clusterRoleBindingTablePrinter,
    strategy: bindingStrategy(false, escalation),
  });
}

export const roleResourceRef = { group: rbacGroup, resource: 'roles' };
export const clusterRoleResourceRef = { group: rbacGroup, resource: 'clusterroles' };
export const clusterRoleBindingResourceRef = { group: rbacGroup, resource: 'clusterrolebindings' };
export const roleBindingResourceRef = { group: rbacGroup, resource: 'rolebindings' };
