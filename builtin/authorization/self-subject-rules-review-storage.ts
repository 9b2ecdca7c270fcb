import { errors } from '../../core/contracts/api-error.js';
import { unionRulesFor, type Authorizer } from '../../core/contracts/authorizer.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { RestContext, RestStorage } from '../../core/contracts/rest-storage.js';

interface SelfSubjectRulesReview extends KubeObject {
  spec?: { namespace?: string };
}

/**
 * `selfsubjectrulesreviews` (create only), as kube's SelfSubjectRulesReview REST: the rules the requesting user holds
 * in `spec.namespace`, from the authorizers (kube's union RulesFor): resource rules and non-resource rules,
 * `incomplete` when one cannot tell them all, the reasons in `evaluationError`. Nothing is stored.
 */
export class SelfSubjectRulesReviewStorage implements RestStorage {
  readonly reviews = true;

  constructor(private readonly authorizers: () => readonly Authorizer[]) {}

  async create(ctx: RestContext, body: KubeObject): Promise<KubeObject> {
    const namespace = (body as SelfSubjectRulesReview).spec?.namespace ?? '';
    if (!namespace) throw errors.badRequest('no namespace on request');
    const held = unionRulesFor(this.authorizers(), ctx.user, namespace);
    const resourceRules: Record<string, string[]>[] = [];
    const nonResourceRules: Record<string, string[]>[] = [];
    for (const r of held.rules) {
      if ((r.resources ?? []).length > 0) {
        resourceRules.push({ verbs: r.verbs, ...nonEmpty('apiGroups', r.apiGroups), ...nonEmpty('resources', r.resources), ...nonEmpty('resourceNames', r.resourceNames) });
      }
      if ((r.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs! });
    }
    return {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: {},
      status: { resourceRules, nonResourceRules, incomplete: held.incomplete, ...(held.evaluationError ? { evaluationError: held.evaluationError } : {}) },
    };
  }
}

/** A list field as Go's `omitempty` writes it: left out when empty. */
function nonEmpty(field: string, values: string[] | undefined): Record<string, string[]> {
  return values && values.length > 0 ? { [field]: values } : {};
}
