import type { UserInfo } from '../../core/contracts/authenticator.js';
import type { AuthorizationAttributes, Authorizer, AuthorizerAnswer, SubjectRules } from '../../core/contracts/authorizer.js';

/** Allows every request of a member of the given groups (k8s.io/apiserver's privileged groups authorizer, `--authorization-always-allow-groups`). */
export class PrivilegedGroupsAuthorizer implements Authorizer {
  readonly name = 'always-allow-groups';

  constructor(private readonly groups: readonly string[]) {}

  async authorize(attrs: AuthorizationAttributes): Promise<AuthorizerAnswer> {
    return { decision: this.privileged(attrs.user) ? 'allow' : 'no-opinion' };
  }

  /** Everything for a member, nothing for others. */
  rulesFor(user: UserInfo): SubjectRules {
    const everything = [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ];
    return { rules: this.privileged(user) ? everything : [], incomplete: false };
  }

  private privileged(user: UserInfo): boolean {
    return user.groups.some((g) => this.groups.includes(g));
  }
}
