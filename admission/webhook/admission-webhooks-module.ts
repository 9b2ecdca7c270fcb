import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { Tokens } from '../../core/contracts/tokens.js';
import { resolveLater } from '../../core/contracts/module.js';
import type { ResourceType } from '../../core/contracts/resource-type.js';
import type { AdmissionPlugin } from '../../core/contracts/admission-plugin.js';
import { registeredServiceResolver } from '../../core/contracts/registered-service-resolver.js';
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
import { webhookManifests } from './webhook-manifests.js';
import { objectsFollower } from '../objects-follower.js';
import type { StaticManifestPlugin } from '../manifests/static-manifest-plugin.js';

/** A webhook match condition must compile, in kube's admission CEL environment (with `authorizer`), to a bool. */
const compileMatchCondition: MatchConditionCompiler = (expression) =>
  compileExpression(admissionEnv({ hasParams: false, hasAuthorizer: true }), expression, [T.bool]).error;

type WebhookPluginFactory = (source: WebhookSource, ctx: MatchContext, staticSource: WebhookSource) => AdmissionPlugin;

/**
 * Serves one webhook configuration kind, follows its objects in storage, adds the plugin's static manifests to
 * `manifests`, and registers the admission plugin that calls the webhooks of both.
 */
function registerWebhooks(c: DependencyContainer, name: string, rt: ResourceType, plugin: WebhookPluginFactory, manifests: StaticManifestPlugin[]): void {
  c.register(Tokens.BuiltinResource, { useValue: rt });
  const source = new WebhookSource();
  const staticSource = new WebhookSource();
  c.register(Tokens.Controller, { useValue: objectsFollower(() => c.resolve(Tokens.Informers), rt, source.update) });
  manifests.push(webhookManifests(name, rt, compileMatchCondition, staticSource));
  c.register(Tokens.AdmissionPlugin, {
    useFactory: instanceCachingFactory<AdmissionPlugin>((container) =>
      plugin(
        source,
        {
          namespaces: container.resolve(Tokens.NamespaceLookup),
          registry: container.resolve(Tokens.Registry),
          services: registeredServiceResolver(container),
          authorization: resolveLater(container, Tokens.Authorization),
          ...(container.isRegistered(Tokens.Metrics, true) ? { metrics: container.resolve(Tokens.Metrics) } : {}),
        },
        staticSource,
      ),
    ),
  });
}

/** Registers the MutatingWebhookConfiguration resource and the `MutatingAdmissionWebhook` plugin. */
export function registerMutatingWebhooks(c: DependencyContainer, manifests: StaticManifestPlugin[]): void {
  const rt = mutatingWebhookConfigurationResource(compileMatchCondition);
  registerWebhooks(c, 'MutatingAdmissionWebhook', rt, (source, ctx, fromFiles) => new MutatingWebhookPlugin(source, ctx, fromFiles), manifests);
}

/** Registers the ValidatingWebhookConfiguration resource and the `ValidatingAdmissionWebhook` plugin. */
export function registerValidatingWebhooks(c: DependencyContainer, manifests: StaticManifestPlugin[]): void {
  const rt = validatingWebhookConfigurationResource(compileMatchCondition);
  registerWebhooks(c, 'ValidatingAdmissionWebhook', rt, (source, ctx, fromFiles) => new ValidatingWebhookPlugin(source, ctx, fromFiles), manifests);
}
