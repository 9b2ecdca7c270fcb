/**
 * A small authorizer plugin of the tests' own (RBAC is a separate module): allows what a table of grants allows, and
 * remembers every question it was asked, so a test can see which user a request was authorized as.
 *
 *   const authz = tableAuthorizer([{ users: ['alice'], verbs: ['get'], resources: ['namespaces'] }]);
 *   startTestServer({ auth: { modules: [staticTokenAuth(tokens), authz.module], token } });
 */
import { defineModule, Tokens, type Authorizer, type AuthorizationAttributes, type Decision, type Module } from '../../index.js';

export interface Grant {
  /** Who: any of these user names or groups. */
  users?: string[];
  groups?: string[];
  verbs: string[];
  /** `resource` or `resource/subresource`; `*` for any. Absent: non-resource paths (see `paths`). */
  resources?: string[];
  apiGroups?: string[];
  namespaces?: string[];
  names?: string[];
  paths?: string[];
  /** Deny (with this reason) instead of allowing. */
  denyReason?: string;
}

export interface TableAuthorizer {
  module: Module;
  /** Every question asked, oldest first. */
  asked: AuthorizationAttributes[];
}

const any = (allowed: string[] | undefined, value: string) => !allowed || allowed.includes('*') || allowed.includes(value);

function matches(g: Grant, a: AuthorizationAttributes): boolean {
  const who = (g.users ?? []).includes(a.user.username) || (g.groups ?? []).some((x) => a.user.groups.includes(x));
  if (!who || !any(g.verbs, a.verb)) return false;
  if (!a.isResourceRequest) return !!g.paths && any(g.paths, a.path);
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : (a.resource ?? '');
  return !!g.resources && any(g.resources, resource) && any(g.apiGroups, a.apiGroup ?? '') && any(g.namespaces, a.namespace ?? '') && any(g.names, a.name ?? '');
}

export function tableAuthorizer(grants: Grant[]): TableAuthorizer {
  const asked: AuthorizationAttributes[] = [];
  const authorizer: Authorizer = {
    name: 'test-table',
    async authorize(attrs): Promise<{ decision: Decision; reason?: string }> {
      asked.push(attrs);
      const grant = grants.find((g) => matches(g, attrs));
      if (!grant) return { decision: 'no-opinion' };
      return grant.denyReason ? { decision: 'deny', reason: grant.denyReason } : { decision: 'allow', reason: 'granted by the test table' };
    },
  };
  return { module: defineModule('test-table-authorizer', (c) => c.register(Tokens.Authorizer, { useValue: authorizer })), asked };
}
