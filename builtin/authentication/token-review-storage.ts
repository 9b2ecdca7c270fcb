import { authenticateWithAll, CredentialsRejected, type Authenticator } from '../../core/contracts/authenticator.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { RestContext, RestStorage } from '../../core/contracts/rest-storage.js';
import { errors } from '../../core/contracts/api-error.js';
import { userInfoObject } from './user-info.js';
import { tokenReviewGoType, type TokenReview } from './authentication-go-types.js';
import { decodeReview } from './review-decoding.js';

/** kube's bearer token authenticator's answer when no authenticator knows the token. */
const invalidToken = 'invalid bearer token';

/**
 * `tokenreviews` (create only), as kube's: runs `spec.token` through the server's authenticators as a bearer token
 * valid for `spec.audiences` (default: the API audiences) and answers in `status`. Nothing is stored.
 */
export class TokenReviewStorage implements RestStorage {
  constructor(
    private readonly authenticators: () => Authenticator[],
    private readonly apiAudiences: string[],
  ) {}

  async create(ctx: RestContext, body: KubeObject): Promise<KubeObject> {
    const review = decodeReview<TokenReview>(body, tokenReviewGoType, 'TokenReview');
    const token = review.spec?.token ?? '';
    if (token === '') throw errors.badRequest('token is required for TokenReview in authentication');
    const requested = review.spec?.audiences?.length ? review.spec.audiences : this.apiAudiences;
    let status: Record<string, unknown>;
    try {
      const user = await authenticateWithAll(this.authenticators(), {
        headers: { authorization: `Bearer ${token}` },
        ...(requested.length ? { audiences: requested } : {}),
      });
      status = user ? { authenticated: true, user: userInfoObject(user), ...(requested.length ? { audiences: requested } : {}) } : { user: {}, error: invalidToken };
    } catch (err) {
      status = { user: {}, error: err instanceof CredentialsRejected ? err.why : invalidToken };
    }
    return { ...review, status }; // the review as sent, answered
  }
}
