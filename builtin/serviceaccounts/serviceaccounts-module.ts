import { defineModule, resolveLater, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { ServiceAccountTokenConfig } from '../../lib/serviceaccount/token-config.js';
import { serviceAccountResource } from './serviceaccount-resource.js';
import { DefaultServiceAccountController } from './default-serviceaccount-controller.js';
import { TokenSecretController } from './token-secret-controller.js';
import { TokenRequestStorage } from './token-request-storage.js';
import { openIdDiscoveryRoutes } from './openid-discovery-routes.js';

export interface ServiceAccountsOptions {
  /**
   * How tokens are issued: with it, the `serviceaccounts/token` subresource and OpenID discovery are served, and
   * `kubernetes.io/service-account-token` Secrets are filled with long-lived tokens.
   */
  tokens?: ServiceAccountTokenConfig;
}

/**
 * Serves v1 ServiceAccounts, a `default` one in every namespace, and — given the token settings — the TokenRequest
 * subresource, the issuer's OpenID discovery documents and long-lived token Secrets. The authenticator of the tokens is plugins/auth'
 * `serviceAccountTokenAuth`, registered among the auth modules.
 */
export function serviceAccountsModule(opts: ServiceAccountsOptions = {}): Module {
  return defineModule('serviceaccounts', (c) => {
    const token = opts.tokens ? new TokenRequestStorage(opts.tokens, resolveLater(c, Tokens.Objects), resolveLater(c, Tokens.Registry)) : undefined;
    c.register(Tokens.BuiltinResource, { useValue: serviceAccountResource(token) });
    c.register(Tokens.Controller, { useValue: new DefaultServiceAccountController(c) });
    if (opts.tokens) c.register(Tokens.Controller, { useValue: new TokenSecretController(c, opts.tokens) });
    for (const route of opts.tokens ? openIdDiscoveryRoutes(opts.tokens) : []) c.register(Tokens.Route, { useValue: route });
  }, { needs: ['namespaces'] });
}
