import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { WebhookAuthorizer, type WebhookAuthorizerOptions } from './webhook-authorizer.js';

/** Registers a webhook authorizer (kube's `--authorization-mode=Webhook`), asked in its place among the authorizers. */
export function webhookAuthorization(options: WebhookAuthorizerOptions): Module {
  return defineModule('webhook-authorization', (container) => {
    container.register(Tokens.Authorizer, { useValue: new WebhookAuthorizer(options) });
  });
}
