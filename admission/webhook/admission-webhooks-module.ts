import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { Tokens } from '../../core/contracts/tokens.js';
import type { ResourceType } from '../../core/contracts/resource-type.js';
import type { AdmissionPlugin } from '../../core/contracts/admission-plugin.js';
import {
  mutatingWebhookConfigurationResource,
  validatingWebhookConfigurationResource,
} from '../../builtin/admissionregistration/webhook-configuration-resources.js';
import type { MatchConditionCompiler } from '../../builtin/admissionregistration/match-rules-validation.js';
import { admissionEnv } from '../policy/cel/admission-cel-env.js';
import { compileExpression } from '../policy/cel/compiled-expression.js';
import { T } from '../../lib/cel/types.js';
import { MutatingWebhookPlugin } from './mutating-webhook-plugin.js';
import { ValidatingWebhookPlugin } from './validating-webhook-plugin.js';
import { WebhookSource } from './webhook-source.js';
import type { MatchContext } from './webhook-invocation.js';

/** A webhook match condition must compile, in kube's admission CEL environment (with `authorizer`), to a bool. */
const compileMatchCondition: MatchConditionCompiler = (expression) =>
  compileExpression(admissionEnv({ hasParams: false, hasAuthorizer: true }), expression, [T.bool]).error;

/**
 * Serves one webhook configuration kind, follows its objects in storage, and registers the admission plugin that
 * calls their webhooks.
 */
function registerWebhooks(c: DependencyContainer, rt: ResourceType, plugin: (source: WebhookSource, ctx: MatchContext) => AdmissionPlugin): void {
  c.register(Tokens.BuiltinResource, { useValue: rt });
  const source = new WebhookSource(() => c.resolve(Tokens.Informers), rt);
  c.register(Tokens.Controller, { useValue: source.follower });
  c.register(Tokens.AdmissionPlugin, {
    useFactory: instanceCachingFactory<AdmissionPlugin>((container) =>
      plugin(source, { namespaces: container.resolve(Tokens.NamespaceLookup), registry: container.resolve(Tokens.Registry) }),
    ),
  });
}

/** Registers the MutatingWebhookConfiguration resource and the `MutatingAdmissionWebhook` plugin. */
export function registerMutatingWebhooks(c: DependencyContainer): void {
  registerWebhooks(c, mutatingWebhookConfigurationResource(compileMatchCondition), (source, ctx) => new MutatingWebhookPlugin(source, ctx));
}

/** Registers the ValidatingWebhookConfiguration resource and the `ValidatingAdmissionWebhook` plugin. */
export function registerValidatingWebhooks(c: DependencyContainer): void {
  registerWebhooks(c, validatingWebhookConfigurationResource(compileMatchCondition), (source, ctx) => new ValidatingWebhookPlugin(source, ctx));
}
