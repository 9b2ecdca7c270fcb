import type { UserInfo } from '../contracts/authenticator.js';

/**
 * Who a request without credentials is (kube's anonymous authenticator); authorization decides what it may do (RBAC's
 * bootstrap `system:public-info-viewer` binding lets it read health and version).
 */
export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
