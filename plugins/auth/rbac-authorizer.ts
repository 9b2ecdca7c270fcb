import type { DependencyContainer } from 'tsyringe';
import type { UserInfo } from '../../core/contracts/authenticator.js';
import type { AuthorizationAttributes, Authorizer, Decision, SubjectRules } from '../../core/contracts/authorizer.js';
import type { Controller } from '../../core/contracts/controller.js';
import type { InformerEvent } from '../../core/contracts/informer.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { aggregate, RbacPolicyIndex } from '../../lib/rbac/rbac-policy-index.js';
import type { PolicyRule, RoleRef, Subject } from '../../lib/rbac/policy-rule.js';

const rbacGroup = 'rbac.authorization.k8s.io';

/**
 * kube's RBAC authorizer: allows what the user's Roles and ClusterRoles grant through the bindings naming the user,
 * one of their groups or their ServiceAccount; otherwise no opinion (the next authorizer is asked). Answers from the
 * RBAC objects the server's informers follow, indexed by subject.
 */
export class RbacAuthorizer implements Authorizer, Controller {
  readonly name = 'RBAC';
  private readonly index = new RbacPolicyIndex();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly container: DependencyContainer) {}

  async authorize(attrs: AuthorizationAttributes): Promise<{ decision: Decision; reason?: string }> {
    const { allowed, reason } = this.index.authorize(attrs.user, attrs.namespace ?? '', attrs);
    return allowed ? { decision: 'allow' } : { decision: 'no-opinion', ...(reason ? { reason } : {}) };
  }

  /** As kube's: never incomplete; roles that could not be found are the evaluationError. */
  rulesFor(user: UserInfo, namespace: string): SubjectRules {
    const { rules, errors } = this.index.rulesFor(user, namespace);
    return { rules, incomplete: false, ...(errors.length ? { evaluationError: aggregate(errors) } : {}) };
  }

  /** Follows roles, cluster roles and both kinds of bindings (the server's informers; served by the rbac module). */
  async start(): Promise<void> {
    const registry = this.container.resolve(Tokens.Registry);
    const informers = this.container.resolve(Tokens.Informers);
    const follow = async (plural: string, apply: (e: InformerEvent) => void) => {
      const rt = registry.get(rbacGroup, plural);
      if (!rt) throw new Error(`the RBAC authorizer needs ${plural}.${rbacGroup} served (rbacModule)`);
      const informer = informers.forResource(rt);
      this.unsubscribe.push(informer.subscribe((events) => events.forEach(apply)));
      await informer.synced();
      for (const object of informer.current().values()) apply({ type: 'ADDED', object });
    };
    const role = (e: InformerEvent) => {
      const { namespace, name } = nameOf(e.object);
      if (e.type === 'DELETED') this.index.deleteRole(namespace, name);
      else this.index.setRole(namespace, name, ((e.object as { rules?: PolicyRule[] | null }).rules ?? []) as PolicyRule[]);
    };
    const binding = (e: InformerEvent) => {
      const { namespace, name } = nameOf(e.object);
      const b = e.object as { roleRef?: RoleRef; subjects?: Subject[] | null };
      if (e.type === 'DELETED' || !b.roleRef) this.index.deleteBinding(namespace, name);
      else this.index.setBinding(namespace, name, b.roleRef, b.subjects ?? []);
    };
    await follow('clusterroles', role);
    await follow('roles', role);
    await follow('clusterrolebindings', binding);
    await follow('rolebindings', binding);
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
  }
}

function nameOf(obj: KubeObject): { namespace: string; name: string } {
  return { namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' };
}

/** Registers the RBAC authorizer (kube's `--authorization-mode=RBAC`); needs the rbac module's kinds. */
export function rbacAuthorization(): Module {
  return defineModule(
    'rbac-authorization',
    (container) => {
      const authorizer = new RbacAuthorizer(container);
      container.register(Tokens.Authorizer, { useValue: authorizer });
      container.register(Tokens.Controller, { useValue: authorizer });
    },
    { needs: ['rbac'] },
  );
}
