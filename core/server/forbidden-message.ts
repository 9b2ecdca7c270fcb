import { ApiError } from '../contracts/api-error.js';
import { StatusReason } from '../contracts/status.js';
import type { AuthorizationAttributes } from '../contracts/authorizer.js';

/**
 * kube-apiserver's 403 for a request no authorizer allowed (responsewriters.ForbiddenStatusError): `forbidden: User
 * "x" cannot get path "/api"` or `widgets.example.com "w" is forbidden: User "x" cannot get resource "widgets" in API
 * group "example.com" in the namespace "ns"` (`at the cluster scope` without a namespace), then `: reason` when the
 * authorizers gave one; details name the group, resource and name.
 */
export function forbiddenError(attrs: AuthorizationAttributes, reason?: string): ApiError {
  const user = JSON.stringify(attrs.user.username);
  const suffix = reason ? `: ${reason}` : '';
  if (!attrs.isResourceRequest) {
    return new ApiError(403, StatusReason.Forbidden, `forbidden: User ${user} cannot ${attrs.verb} path ${JSON.stringify(attrs.path)}${suffix}`, {});
  }
  const group = attrs.apiGroup ?? '';
  const resource = attrs.resource ?? '';
  const name = attrs.name ?? '';
  const full = attrs.subresource ? `${resource}/${attrs.subresource}` : resource;
  const scope = attrs.namespace ? `in the namespace ${JSON.stringify(attrs.namespace)}` : 'at the cluster scope';
  const why = `User ${user} cannot ${attrs.verb} resource ${JSON.stringify(full)} in API group ${JSON.stringify(group)} ${scope}${suffix}`;
  const what = group ? `${resource}.${group}` : resource;
  const message = name ? `${what} ${JSON.stringify(name)} is forbidden: ${why}` : `${what} is forbidden: ${why}`;
  return new ApiError(403, StatusReason.Forbidden, message, { ...(name ? { name } : {}), ...(group ? { group } : {}), kind: resource });
}
