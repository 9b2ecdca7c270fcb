import type { UserInfo } from './authenticator.js';

/** What a request wants to do (authorization.k8s.io ResourceAttributes / NonResourceAttributes). */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup?: string;
  apiVersion?: string;
  namespace?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

/** An authorizer plugin. Authorizers are asked in order; the first `allow` or `deny` decides; none → 403. */
export interface Authorizer {
  readonly name: string;
  authorize(attrs: AuthorizationAttributes): Promise<{ decision: Decision; reason?: string }>;
}
