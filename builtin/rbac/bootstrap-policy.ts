import type { Binding, ClusterRole, PolicyRule, Role, Subject } from './rbac-types.js';
import { rbacGroup } from './rbac-types.js';

/*
 * kube's bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy) as it applies to kapi: the roles and
 * bindings of users and of the resources kapi serves. Left out: the system:controller:* and system:node* roles (no
 * controller-manager, no nodes), system:kube-* and system:volume-scheduler, system:heapster and the other component
 * roles; the rules of admin/edit/view on resources kapi does not serve (pods, apps, batch, …).
 */

const read = ['get', 'list', 'watch'];
const write = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const readWrite = [...read, ...write];

/** kube's bootstrapping label and the annotation that lets the start-up reconciliation update an object. */
export const bootstrappingLabel = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
export const autoUpdateAnnotation = 'rbac.authorization.kubernetes.io/autoupdate';

const aggregateTo = (role: 'admin' | 'edit' | 'view') => `rbac.authorization.k8s.io/aggregate-to-${role}`;

function rule(verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule {
  return { verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) };
}

function urls(verbs: string[], nonResourceURLs: string[]): PolicyRule {
  return { verbs, nonResourceURLs };
}

function clusterRole(name: string, rules: PolicyRule[], extra: { labels?: Record<string, string>; aggregate?: 'admin' | 'edit' | 'view' } = {}): ClusterRole {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRole',
    metadata: { name, labels: { ...bootstrappingLabel, ...extra.labels }, annotations: { [autoUpdateAnnotation]: 'true' } },
    ...(extra.aggregate ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [aggregateTo(extra.aggregate)]: 'true' } }] }, rules: [] } : { rules }),
  };
}

function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'Role',
    metadata: { name, namespace, labels: { ...bootstrappingLabel }, annotations: { [autoUpdateAnnotation]: 'true' } },
    rules,
  };
}

const group = (name: string): Subject => ({ kind: 'Group', apiGroup: rbacGroup, name });

function clusterRoleBinding(name: string, role: string, subjects: Subject[]): Binding {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: { ...bootstrappingLabel }, annotations: { [autoUpdateAnnotation]: 'true' } },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: role },
    subjects,
  };
}

const discoveryURLs = ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'];
const publicInfoURLs = ['/healthz', '/livez', '/readyz', '/version', '/version/'];
/** kube's monitoring endpoints, with the zpages (/statusz, /flagz) that kube-apiserver serves to the same readers. */
const monitoringURLs = ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*', '/statusz', '/flagz'];
const issuerDiscoveryURLs = ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'];

/** The ClusterRoles created (or updated, unless their autoupdate annotation is "false") at every start. */
export function bootstrapClusterRoles(): ClusterRole[] {
  return [
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    clusterRole('system:discovery', [urls(['get'], discoveryURLs)]),
    clusterRole('system:public-info-viewer', [urls(['get'], publicInfoURLs)]),
    clusterRole('system:monitoring', [urls(['get'], monitoringURLs)]),
    clusterRole('system:basic-user', [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ]),
    clusterRole('system:auth-delegator', [rule(['create'], ['authentication.k8s.io'], ['tokenreviews']), rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews'])]),
    clusterRole('system:service-account-issuer-discovery', [urls(['get'], issuerDiscoveryURLs)]),
    clusterRole('admin', [], { aggregate: 'admin' }),
    clusterRole('edit', [], { aggregate: 'edit', labels: { [aggregateTo('admin')]: 'true' } }),
    clusterRole('view', [], { aggregate: 'view', labels: { [aggregateTo('edit')]: 'true' } }),
    clusterRole(
      'system:aggregate-to-admin',
      [rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']), rule(readWrite, [rbacGroup], ['rolebindings', 'roles'])],
      { labels: { [aggregateTo('admin')]: 'true' } },
    ),
    clusterRole(
      'system:aggregate-to-edit',
      [
        // kube's "read on escalating resources" (secrets are not in view, which edit aggregates)
        rule(read, [''], ['secrets']),
        rule(['impersonate'], [''], ['serviceaccounts']),
        rule(write, [''], ['serviceaccounts', 'services', 'configmaps', 'secrets', 'events']),
        rule(['create'], [''], ['serviceaccounts/token']),
      ],
      { labels: { [aggregateTo('edit')]: 'true' } },
    ),
    clusterRole(
      'system:aggregate-to-view',
      [
        rule(read, [''], ['serviceaccounts', 'services', 'services/status', 'endpoints', 'configmaps']),
        rule(read, [''], ['events', 'namespaces/status']),
        rule(read, [''], ['namespaces']),
      ],
      { labels: { [aggregateTo('view')]: 'true' } },
    ),
  ];
}

/**
 * The Roles reconciled with them: kube's namespaced bootstrap roles kapi has a use for. Extension API servers are
 * bound to `extension-apiserver-authentication-reader` to read how this server authenticates clients.
 */
export function bootstrapNamespaceRoles(): Role[] {
  return [role('kube-system', 'extension-apiserver-authentication-reader', [rule(read, [''], ['configmaps'], ['extension-apiserver-authentication'])])];
}

/** The ClusterRoleBindings reconciled with them. */
export function bootstrapClusterRoleBindings(): Binding[] {
  return [
    clusterRoleBinding('cluster-admin', 'cluster-admin', [group('system:masters')]),
    clusterRoleBinding('system:discovery', 'system:discovery', [group('system:authenticated')]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
    clusterRoleBinding('system:monitoring', 'system:monitoring', [group('system:monitoring')]),
    clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
  ];
}
