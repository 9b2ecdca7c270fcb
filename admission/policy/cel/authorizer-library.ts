/**
 * Kubernetes' CEL authorization library (k8s.io/apiserver/pkg/cel/library Authz and AuthzSelectors):
 * `authorizer.group(g).resource(r).subresource(s).namespace(ns).name(n).check(verb)`,
 * `authorizer.path(p).check(httpVerb)`, `authorizer.serviceAccount(ns, name)`, and the Decision's `allowed()`,
 * `reason()`, `errored()`, `error()`. Checks are answered synchronously by a {@link CelAuthorizer} (for admission: the
 * request's AuthorizationChecks, which asks the server's authorizers).
 */
import { member, type FunctionRegistry } from '../../../lib/cel/functions.js';
import { T } from '../../../lib/cel/types.js';
import { CelError, OpaqueValue, type Val, type Value } from '../../../lib/cel/values.js';
import type { UserInfo } from '../../../core/contracts/authenticator.js';
import { serviceAccountGroups, serviceAccountUsername } from '../../../lib/serviceaccount/service-account-names.js';

export const AUTHORIZER_TYPE = T.opaque('kubernetes.authorization.Authorizer');
export const PATH_CHECK_TYPE = T.opaque('kubernetes.authorization.PathCheck');
export const GROUP_CHECK_TYPE = T.opaque('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK_TYPE = T.opaque('kubernetes.authorization.ResourceCheck');
export const DECISION_TYPE = T.opaque('kubernetes.authorization.Decision');

/** What one check asks (authorizer.AttributesRecord). */
export interface CelAuthorizationRequest {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  path?: string;
  apiGroup?: string;
  apiVersion?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  fieldSelector?: string;
  labelSelector?: string;
}

export interface CelAuthorizationDecision {
  decision: 'allow' | 'deny' | 'no-opinion';
  reason: string;
  error?: string;
}

/** Answers authorization checks made by expressions while they evaluate. */
export interface CelAuthorizer {
  authorize(req: CelAuthorizationRequest): CelAuthorizationDecision;
}

/** The cost Kubernetes charges for one authorization check (checked and estimated). */
const CHECK_COST = 350_000;

abstract class AuthzValue extends OpaqueValue {
  equals(other: OpaqueValue): boolean {
    return other === this;
  }
}

export class AuthorizerValue extends AuthzValue {
  readonly typeName = 'kubernetes.authorization.Authorizer';
  constructor(
    readonly user: UserInfo,
    readonly authorizer: CelAuthorizer,
  ) {
    super();
  }
}

class PathCheckValue extends AuthzValue {
  readonly typeName = 'kubernetes.authorization.PathCheck';
  constructor(
    readonly authz: AuthorizerValue,
    readonly path: string,
  ) {
    super();
  }
}

class GroupCheckValue extends AuthzValue {
  readonly typeName = 'kubernetes.authorization.GroupCheck';
  constructor(
    readonly authz: AuthorizerValue,
    readonly group: string,
  ) {
    super();
  }
}

interface ResourceCheckFields {
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector: string;
  labelSelector: string;
}

export class ResourceCheckValue extends AuthzValue {
  readonly typeName = 'kubernetes.authorization.ResourceCheck';
  constructor(
    readonly group: GroupCheckValue,
    readonly fields: ResourceCheckFields,
  ) {
    super();
  }
  with(change: Partial<ResourceCheckFields>): ResourceCheckValue {
    return new ResourceCheckValue(this.group, { ...this.fields, ...change });
  }
}

class DecisionValue extends AuthzValue {
  readonly typeName = 'kubernetes.authorization.Decision';
  constructor(readonly d: CelAuthorizationDecision) {
    super();
  }
}

/** `authorizer.requestResource`: a ResourceCheck for the request's own resource, subresource, namespace and name. */
export function requestResourceCheck(
  authz: AuthorizerValue,
  r: { group: string; resource: string; subresource: string; namespace: string; name: string },
): ResourceCheckValue {
  return new ResourceCheckValue(new GroupCheckValue(authz, r.group), {
    resource: r.resource,
    subresource: r.subresource,
    namespace: r.namespace,
    name: r.name,
    fieldSelector: '',
    labelSelector: '',
  });
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** kube's serviceaccount.UserInfo: the account's name and groups (no system:authenticated). */
function serviceAccountUser(namespace: string, name: string): UserInfo {
  return { username: serviceAccountUsername(namespace, name), groups: serviceAccountGroups(namespace) };
}

export function registerAuthorizerLibrary(r: FunctionRegistry): void {
  const str = (v: Value) => v as string;
  r.add(
    'path',
    member('authorizer_path', [AUTHORIZER_TYPE, T.string], PATH_CHECK_TYPE, (a): Val => {
      if (str(a[1]).trim() === '') return new CelError('path must not be empty');
      return new PathCheckValue(a[0] as AuthorizerValue, str(a[1]));
    }),
  );
  r.add('group', member('authorizer_group', [AUTHORIZER_TYPE, T.string], GROUP_CHECK_TYPE, (a) => new GroupCheckValue(a[0] as AuthorizerValue, str(a[1]))));
  r.add(
    'serviceAccount',
    member('authorizer_serviceaccount', [AUTHORIZER_TYPE, T.string, T.string], AUTHORIZER_TYPE, (a): Val => {
      const [authz, namespace, name] = [a[0] as AuthorizerValue, str(a[1]), str(a[2])];
      if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) return new CelError('Invalid service account name');
      if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) return new CelError('Invalid service account namespace');
      return new AuthorizerValue(serviceAccountUser(namespace, name), authz.authorizer);
    }),
  );
  r.add(
    'resource',
    member('groupcheck_resource', [GROUP_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE, (a): Val => {
      if (str(a[1]).trim() === '') return new CelError('resource must not be empty');
      return new ResourceCheckValue(a[0] as GroupCheckValue, { resource: str(a[1]), subresource: '', namespace: '', name: '', fieldSelector: '', labelSelector: '' });
    }),
  );
  const setter = (fn: keyof ResourceCheckFields, id: string) =>
    r.add(fn, member(id, [RESOURCE_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE, (a) => (a[0] as ResourceCheckValue).with({ [fn]: str(a[1]) })));
  setter('subresource', 'resourcecheck_subresource');
  setter('namespace', 'resourcecheck_namespace');
  setter('name', 'resourcecheck_name');
  setter('fieldSelector', 'authorizer_fieldselector');
  setter('labelSelector', 'authorizer_labelselector');
  const checkCost = { cost: () => CHECK_COST, estimate: () => ({ cost: { min: CHECK_COST, max: CHECK_COST } }) };
  r.add(
    'check',
    member(
      'pathcheck_check',
      [PATH_CHECK_TYPE, T.string],
      DECISION_TYPE,
      (a) => {
        const p = a[0] as PathCheckValue;
        return new DecisionValue(p.authz.authorizer.authorize({ user: p.authz.user, verb: str(a[1]), resourceRequest: false, path: p.path }));
      },
      checkCost,
    ),
    member(
      'resourcecheck_check',
      [RESOURCE_CHECK_TYPE, T.string],
      DECISION_TYPE,
      (a) => {
        const c = a[0] as ResourceCheckValue;
        const f = c.fields;
        return new DecisionValue(
          c.group.authz.authorizer.authorize({
            user: c.group.authz.user,
            verb: str(a[1]),
            resourceRequest: true,
            apiGroup: c.group.group,
            apiVersion: '*',
            resource: f.resource,
            subresource: f.subresource,
            namespace: f.namespace,
            name: f.name,
            ...(f.fieldSelector ? { fieldSelector: f.fieldSelector } : {}),
            ...(f.labelSelector ? { labelSelector: f.labelSelector } : {}),
          }),
        );
      },
      checkCost,
    ),
  );
  const decision = (v: Value) => (v as DecisionValue).d;
  r.add('allowed', member('decision_allowed', [DECISION_TYPE], T.bool, (a) => decision(a[0]).decision === 'allow'));
  r.add('reason', member('decision_reason', [DECISION_TYPE], T.string, (a) => decision(a[0]).reason));
  r.add('errored', member('decision_errored', [DECISION_TYPE], T.bool, (a) => decision(a[0]).error !== undefined));
  r.add('error', member('decision_error', [DECISION_TYPE], T.string, (a) => decision(a[0]).error ?? ''));
}
