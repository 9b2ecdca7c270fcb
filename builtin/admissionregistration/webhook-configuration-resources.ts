import type { ResourceType } from '../../core/contracts/resource-type.js';
import { admissionRegistrationResource } from './admission-registration-resource.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { compileSchema } from '../../schemas/structural-schema.js';
import { webhookConfigurationTablePrinter } from './webhook-configuration-printer.js';
import { applyWebhookConfigurationDefaults } from './webhook-configuration-defaults.js';
import { webhookConfigurationGoTypes } from './webhook-configuration-go-types.js';
import type { MatchConditionCompiler } from './match-rules-validation.js';
import { validateWebhookConfiguration } from './webhook-configuration-validation.js';
import type { WebhookConfiguration, WebhookConfigurationKind } from './webhook-configuration-types.js';
import { reservedStaticNameCauses } from './static-manifest-names.js';

function webhookConfigurationResource(kind: WebhookConfigurationKind, compileCondition: MatchConditionCompiler): ResourceType {
  const mutating = kind === 'MutatingWebhookConfiguration';
  const schema = builtinSchema(`${kind.toLowerCase()}.v1`);
  const compiled = compileSchema(schema);
  // Already decoded into its Go type (goType): unknown fields are dropped, then the defaults.
  const pruneAndDefault = (obj: WebhookConfiguration) => {
    compiled.prune(obj);
    applyWebhookConfigurationDefaults(obj, mutating);
  };
  return admissionRegistrationResource(
    kind,
    webhookConfigurationGoTypes[kind],
    { schema, tablePrinter: webhookConfigurationTablePrinter },
    {
      prepareForCreate: pruneAndDefault,
      prepareForUpdate: pruneAndDefault,
      validate: (obj, old) => [...validateWebhookConfiguration(obj, mutating, compileCondition, old), ...(old ? [] : reservedStaticNameCauses(obj))],
    },
  );
}

/** admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration, with kube's defaults and validation. */
export function validatingWebhookConfigurationResource(compileCondition: MatchConditionCompiler): ResourceType {
  return webhookConfigurationResource('ValidatingWebhookConfiguration', compileCondition);
}

/** admissionregistration.k8s.io/v1 MutatingWebhookConfiguration, with kube's defaults and validation. */
export function mutatingWebhookConfigurationResource(compileCondition: MatchConditionCompiler): ResourceType {
  return webhookConfigurationResource('MutatingWebhookConfiguration', compileCondition);
}
