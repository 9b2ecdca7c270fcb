import type { UserInfo } from '../contracts/authenticator.js';

/** Who a request without credentials is (kube's anonymous authenticator). */
export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/**
 * The paths an anonymous request may reach, without authorization: those kube's bootstrap RBAC binding
 * `system:public-info-viewer` grants `system:unauthenticated`. Elsewhere an anonymous request is 401 (kube-apiserver
 * with RBAC answers 403 there); this rule stands in for RBAC until kapi serves it.
 */
const publicPaths = [/^\/(healthz|livez|readyz)(\/.*)?$/, /^\/version\/?$/];

export function anonymousMayReach(path: string): boolean {
  return publicPaths.some((p) => p.test(path));
}
