import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { Authenticator } from '../../core/contracts/authenticator.js';
import { selfSubjectReviewResource, tokenReviewResource } from './authentication-resources.js';
import { selfSubjectReviewStorage } from './self-subject-review-storage.js';
import { TokenReviewStorage } from './token-review-storage.js';

export interface AuthenticationApiOptions {
  /** The audiences a TokenReview without spec.audiences checks tokens for (kube-apiserver's `--api-audiences`). */
  apiAudiences?: string[];
}

/**
 * Serves authentication.k8s.io/v1: SelfSubjectReview (`kubectl auth whoami`) and TokenReview, which asks the
 * server's registered authenticators about a bearer token.
 */
export function authenticationApiModule(opts: AuthenticationApiOptions = {}): Module {
  return defineModule('authentication-api', (c) => {
    let authenticators: Authenticator[] | undefined;
    const all = () => (authenticators ??= c.isRegistered(Tokens.Authenticator, true) ? c.resolveAll(Tokens.Authenticator) : []);
    c.register(Tokens.BuiltinResource, { useValue: tokenReviewResource(new TokenReviewStorage(all, opts.apiAudiences ?? [])) });
    c.register(Tokens.BuiltinResource, { useValue: selfSubjectReviewResource(selfSubjectReviewStorage) });
  });
}
