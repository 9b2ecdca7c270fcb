import type { UserInfo } from '../contracts/authenticator.js';
import type { RequestInfo } from '../request/request-info.js';

/** kube-apiserver's text for an authorization denial. */
export function forbiddenMessage(user: UserInfo, info: RequestInfo, reason?: string): string {
  const suffix = reason ? `: ${reason}` : '';
  if (!info.isResourceRequest) return `forbidden: User "${user.username}" cannot ${info.verb} path "${info.path}"${suffix}`;
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  const what = info.apiGroup ? `${info.resource}.${info.apiGroup}` : info.resource;
  const subject = info.name ? `${what} "${info.name}"` : what;
  const scope = info.namespace ? ` in the namespace "${info.namespace}"` : info.name || info.resource === 'namespaces' ? '' : ' at the cluster scope';
  return `${subject} is forbidden: User "${user.username}" cannot ${info.verb} resource "${resource}" in API group "${info.apiGroup}"${scope}${suffix}`;
}
