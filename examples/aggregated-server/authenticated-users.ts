/**
 * The example's authorizer: every authenticated user may do everything, anonymous requests nothing. A stopgap for
 * delegated authorization (SubjectAccessReview at the front, `--authorization-kubeconfig`), which kapi does not have
 * yet: requests through the front were already authorized there, but a client that reaches this server directly with
 * a token the front knows is not held to the front's RBAC.
 */
import { defineModule, Tokens, type Authorizer } from '../../index.js';

const authenticatedUsers: Authorizer = {
  name: 'authenticated-users',
  async authorize({ user }) {
    return user.groups.includes('system:authenticated') ? { decision: 'allow' } : { decision: 'no-opinion', reason: 'anonymous requests are not allowed' };
  },
};

export const allowAuthenticatedUsers = defineModule('authenticated-users', (container) => {
  container.register(Tokens.Authorizer, { useValue: authenticatedUsers });
});
