import { errors } from '../../core/contracts/api-error.js';
import type { Authorizer } from '../../core/contracts/authorizer.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { RestContext, RestStorage } from '../../core/contracts/rest-storage.js';
import { aggregate } from '../../lib/rbac/rbac-policy-index.js';

interface SelfSubjectRulesReview extends KubeObject {
  spec?: { namespace?: string };
}

/**
 * `selfsubjectrulesreviews` (create only), as kube's SelfSubjectRulesReview REST: the rules the requesting user holds
 * in `spec.namespace`, from every authorizer that can tell (kube's union RulesFor): resource rules and non-resource
 * rules, `incomplete` when one cannot, the reasons in `evaluationError`. Nothing is stored.
 */
export class SelfSubjectRulesReviewStorage implements RestStorage {
  readonly reviews = true;

  constructor(private readonly authorizers: () => readonly Authorizer[]) {}

  async create(ctx: RestContext, body: KubeObject): Promise<KubeObject> {
    const namespace = (body as SelfSubjectRulesReview).spec?.namespace ?? '';
    if (!namespace) throw errors.badRequest('no namespace on request');
    const resourceRules: Record<string, string[]>[] = [];
    const nonResourceRules: Record<string, string[]>[] = [];
    const evaluationErrors: string[] = [];
    let incomplete = false;
    for (const a of this.authorizers()) {
      if (!a.rulesFor) {
        incomplete = true;
        continue;
      }
      const held = a.rulesFor(ctx.user, namespace);
      incomplete ||= held.incomplete;
      if (held.evaluationError) evaluationErrors.push(held.evaluationError);
      for (const r of held.rules) {
        if ((r.resources ?? []).length > 0) {
          resourceRules.push({ verbs: r.verbs, ...nonEmpty('apiGroups', r.apiGroups), ...nonEmpty('resources', r.resources), ...nonEmpty('resourceNames', r.resourceNames) });
        }
        if ((r.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs! });
      }
    }
    return {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: {},
      status: { resourceRules, nonResourceRules, incomplete, ...(evaluationErrors.length ? { evaluationError: aggregate(evaluationErrors) } : {}) },
    };
  }
}

/** A list field as Go's `omitempty` writes it: left out when empty. */
function nonEmpty(field: string, values: string[] | undefined): Record<string, string[]> {
  return values && values.length > 0 ? { [field]: values } : {};
}
