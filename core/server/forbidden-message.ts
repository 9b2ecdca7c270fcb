import { ApiError, errors } from '../contracts/api-error.js';
import type { AuthorizationAttributes } from '../contracts/authorizer.js';

/** kube-apiserver's text for what a user may not do (responsewriters' forbiddenMessage, HTML-escaped as kube's). */
export function forbiddenMessage(attrs: AuthorizationAttributes): string {
  return unescaped(attrs).replace(/[&<>]/g, (c) => htmlEntities[c]!);
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

function unescaped(attrs: AuthorizationAttributes): string {
  const user = attrs.user.username;
  if (!attrs.isResourceRequest) return `User "${user}" cannot ${attrs.verb} path "${attrs.path}"`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const scope = attrs.namespace ? `in the namespace "${attrs.namespace}"` : 'at the cluster scope';
  return `User "${user}" cannot ${attrs.verb} resource "${resource}" in API group "${attrs.apiGroup ?? ''}" ${scope}`;
}

/** kube's 403 for a refused request or impersonation: the message above, then the authorizers' reason. */
export function forbidden(attrs: AuthorizationAttributes, reason: string): ApiError {
  const text = reason ? `${forbiddenMessage(attrs)}: ${reason}` : forbiddenMessage(attrs);
  if (!attrs.isResourceRequest || !attrs.resource) return new ApiError(403, 'Forbidden', `forbidden: ${text}`, {});
  return errors.forbidden({ group: attrs.apiGroup ?? '', resource: attrs.resource, ...(attrs.name ? { name: attrs.name } : {}) }, text);
}
