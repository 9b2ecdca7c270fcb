import type { AuthorizationAttributes, Authorizer, AuthorizerAnswer } from '../../core/contracts/authorizer.js';

/** Allows every request of a member of the given groups (k8s.io/apiserver's privileged groups authorizer, `--authorization-always-allow-groups`). */
export class PrivilegedGroupsAuthorizer implements Authorizer {
  readonly name = 'always-allow-groups';

  constructor(private readonly groups: readonly string[]) {}

  async authorize(attrs: AuthorizationAttributes): Promise<AuthorizerAnswer> {
    return { decision: attrs.user.groups.some((g) => this.groups.includes(g)) ? 'allow' : 'no-opinion' };
  }
}
