import { goTypes as t, type GoStructType, type GoType } from '../../lib/go/json-decoding.js';
import { goTime, kindGoType } from '../../schemas/object-meta-go-type.js';

const json = t.json('v1.JSON');
const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** apiextensions.k8s.io/v1 JSONSchemaProps, which contains itself. */
const jsonSchemaProps: GoStructType = t.struct('v1.JSONSchemaProps', () => ({
  id: t.string(),
  $schema: t.string('v1.JSONSchemaURL'),
  $ref: t.string(),
  description: t.string(),
  type: t.string(),
  format: t.string(),
  title: t.string(),
  default: json,
  maximum: t.float64,
  exclusiveMaximum: t.bool,
  minimum: t.float64,
  exclusiveMinimum: t.bool,
  maxLength: t.int64,
  minLength: t.int64,
  pattern: t.string(),
  maxItems: t.int64,
  minItems: t.int64,
  uniqueItems: t.bool,
  multipleOf: t.float64,
  enum: t.slice(json),
  maxProperties: t.int64,
  minProperties: t.int64,
  required: t.slice(t.string()),
  items: schemaOrArray,
  allOf: t.slice(jsonSchemaProps),
  oneOf: t.slice(jsonSchemaProps),
  anyOf: t.slice(jsonSchemaProps),
  not: jsonSchemaProps,
  properties: t.map(jsonSchemaProps),
  additionalProperties: schemaOrBool,
  patternProperties: t.map(jsonSchemaProps),
  dependencies: t.map(schemaOrStringArray, 'v1.JSONSchemaDependencies'),
  additionalItems: schemaOrBool,
  definitions: t.map(jsonSchemaProps, 'v1.JSONSchemaDefinitions'),
  externalDocs: t.struct('v1.ExternalDocumentation', { description: t.string(), url: t.string() }),
  example: json,
  nullable: t.bool,
  'x-kubernetes-preserve-unknown-fields': t.bool,
  'x-kubernetes-embedded-resource': t.bool,
  'x-kubernetes-int-or-string': t.bool,
  'x-kubernetes-list-map-keys': t.slice(t.string()),
  'x-kubernetes-list-type': t.string(),
  'x-kubernetes-map-type': t.string(),
  'x-kubernetes-validations': t.slice(
    t.struct('v1.ValidationRule', {
      rule: t.string(),
      message: t.string(),
      messageExpression: t.string(),
      reason: t.string('v1.FieldValueErrorReason'),
      fieldPath: t.string(),
      optionalOldSelf: t.bool,
    }),
    'v1.ValidationRules',
  ),
}));

// The UnmarshalJSON methods of apiextensions' union types: what they decode each JSON value as.

/** JSONSchemaPropsOrArray: a schema or a list of schemas; any other value is silently dropped. */
const schemaOrArray: GoType = t.unmarshaler('v1.JSONSchemaPropsOrArray', (v) => (isObject(v) ? jsonSchemaProps : Array.isArray(v) ? t.slice(jsonSchemaProps) : undefined));

/** JSONSchemaPropsOrBool: a schema or a boolean; anything else is the method's own error. */
const schemaOrBool: GoType = t.unmarshaler('v1.JSONSchemaPropsOrBool', (v) =>
  isObject(v) ? jsonSchemaProps : typeof v === 'boolean' ? undefined : 'boolean or JSON schema expected',
);

/** JSONSchemaPropsOrStringArray: a schema or a list of property names; any other value is silently dropped. */
const schemaOrStringArray: GoType = t.unmarshaler('v1.JSONSchemaPropsOrStringArray', (v) =>
  isObject(v) ? jsonSchemaProps : Array.isArray(v) ? t.slice(t.string()) : undefined,
);

const names = t.struct('v1.CustomResourceDefinitionNames', {
  plural: t.string(),
  singular: t.string(),
  shortNames: t.slice(t.string()),
  kind: t.string(),
  listKind: t.string(),
  categories: t.slice(t.string()),
});

const version = t.struct('v1.CustomResourceDefinitionVersion', {
  name: t.string(),
  served: t.bool,
  storage: t.bool,
  deprecated: t.bool,
  deprecationWarning: t.string(),
  schema: t.struct('v1.CustomResourceValidation', { openAPIV3Schema: jsonSchemaProps }),
  subresources: t.struct('v1.CustomResourceSubresources', {
    status: t.struct('v1.CustomResourceSubresourceStatus', {}),
    scale: t.struct('v1.CustomResourceSubresourceScale', { specReplicasPath: t.string(), statusReplicasPath: t.string(), labelSelectorPath: t.string() }),
  }),
  additionalPrinterColumns: t.slice(
    t.struct('v1.CustomResourceColumnDefinition', {
      name: t.string(),
      type: t.string(),
      format: t.string(),
      description: t.string(),
      priority: t.int32,
      jsonPath: t.string(),
    }),
  ),
  selectableFields: t.slice(t.struct('v1.SelectableField', { jsonPath: t.string() })),
});

const conversion = t.struct('v1.CustomResourceConversion', {
  strategy: t.string('v1.ConversionStrategyType'),
  webhook: t.struct('v1.WebhookConversion', {
    clientConfig: t.struct('v1.WebhookClientConfig', {
      url: t.string(),
      service: t.struct('v1.ServiceReference', { namespace: t.string(), name: t.string(), path: t.string(), port: t.int32 }),
      caBundle: t.bytes,
    }),
    conversionReviewVersions: t.slice(t.string()),
  }),
});

/** apiextensions.k8s.io/v1 CustomResourceDefinition as kube's decoder sees it. */
export const crdGoType: GoStructType = kindGoType('v1.CustomResourceDefinition', {
  spec: t.struct('v1.CustomResourceDefinitionSpec', {
    group: t.string(),
    names,
    scope: t.string('v1.ResourceScope'),
    versions: t.slice(version),
    conversion,
    preserveUnknownFields: t.bool,
  }),
  status: t.struct('v1.CustomResourceDefinitionStatus', {
    conditions: t.slice(
      t.struct('v1.CustomResourceDefinitionCondition', {
        type: t.string('v1.CustomResourceDefinitionConditionType'),
        status: t.string('v1.ConditionStatus'),
        lastTransitionTime: goTime,
        reason: t.string(),
        message: t.string(),
      }),
    ),
    acceptedNames: names,
    storedVersions: t.slice(t.string()),
  }),
});
