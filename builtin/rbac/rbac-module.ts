import { defineModule, resolveAllLater, resolveLater, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { BootstrapPolicyReconciler } from './bootstrap-reconciler.js';
import { ClusterRoleAggregationController } from './cluster-role-aggregation-controller.js';
import { EscalationCheck } from './escalation-check.js';
import { clusterRoleBindingResource, clusterRoleResource, roleBindingResource, roleResource } from './rbac-resources.js';
import { RoleRules } from './role-rules.js';

/**
 * Serves rbac.authorization.k8s.io/v1 Roles, ClusterRoles, RoleBindings and ClusterRoleBindings with kube's
 * escalation checks, reconciles kube's bootstrap roles and bindings at start, and keeps aggregated ClusterRoles'
 * rules up to date. Whether RBAC decides requests is the authorizer's business (rbacAuthorization).
 */
export function rbacModule(): Module {
  return defineModule('rbac', (c) => {
    const informers = resolveLater(c, Tokens.Informers);
    const roles = new RoleRules(
      () => informers().forResource(roleResource()),
      () => informers().forResource(clusterRoleResource()),
    );
    const escalation = new EscalationCheck(resolveAllLater(c, Tokens.Authorizer), roles);
    for (const rt of [roleResource(escalation), clusterRoleResource(escalation), roleBindingResource(escalation), clusterRoleBindingResource(escalation)]) {
      c.register(Tokens.BuiltinResource, { useValue: rt });
    }
    c.register(Tokens.Controller, { useValue: new BootstrapPolicyReconciler(c) });
    c.register(Tokens.Controller, { useValue: new ClusterRoleAggregationController(c) });
  });
}
