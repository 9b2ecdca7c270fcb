import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { RestContext, RestStorage } from '../../core/contracts/rest-storage.js';
import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import { userInfoObject } from './user-info.js';
import { selfSubjectReviewGoType } from './authentication-go-types.js';
import { decodeReview } from './review-decoding.js';

/** `selfsubjectreviews` (create only), as kube's: answers who the request's user is. Nothing is stored. */
export const selfSubjectReviewStorage: RestStorage = {
  async create(ctx: RestContext, body: KubeObject): Promise<KubeObject> {
    decodeReview(body, selfSubjectReviewGoType, 'SelfSubjectReview');
    return {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: { creationTimestamp: formatDateRFC3339(new Date()) },
      status: { userInfo: userInfoObject(ctx.user) },
    };
  },
};
