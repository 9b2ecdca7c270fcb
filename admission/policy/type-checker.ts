/**
 * Type checking of a policy's validations against the kinds it matches (kube's validating.TypeChecker): for every
 * kind its matchConstraints' resourceRules name exactly (no wildcards, no subresources; at most 10, sorted by group,
 * version, kind), each validation's expression and messageExpression is compiled with `object` and `oldObject`
 * typed by that kind's schema and `params` by the paramKind's; compile errors become status warnings
 * (`example.com/v1, Kind=Widget: ERROR: <input>:1:…`). Kinds without a schema are not checked. The kind resolution
 * (kindsToCheck) also gives MutatingAdmissionPolicies the kinds their mutations are type-checked against.
 */
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import type { ResourceType } from '../../core/contracts/resource-type.js';
import type { ExpressionWarning, MatchResources, ValidatingAdmissionPolicy } from '../../builtin/admissionregistration/validating-admission-policy-types.js';
import { kubernetesEnv } from '../../lib/cel/libraries.js';
import { celTypeOf, schemaDeclType } from '../../schemas/cel/schema-decl.js';
import { T, type Type } from '../../lib/cel/types.js';
import type { Env } from '../../lib/cel/env.js';
import { NAMESPACE_TYPE, REQUEST_TYPE } from './cel/admission-cel-types.js';
import { AUTHORIZER_TYPE, registerAuthorizerLibrary } from './cel/authorizer-library.js';
import { parseApiVersion } from './param-informers.js';

const MAX_TYPES_TO_CHECK = 10;

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

/** schema.GroupVersionKind's String(). */
export const gvkString = (g: Gvk): string => `${g.group}/${g.version}, Kind=${g.kind}`;

const str: JSONSchemaProps = { type: 'string' };
const strMap: JSONSchemaProps = { type: 'object', additionalProperties: { type: 'string' } };
const strList: JSONSchemaProps = { type: 'array', items: { type: 'string' } };
const time: JSONSchemaProps = { type: 'string', format: 'date-time' };

/** ObjectMeta as the OpenAPI kube publishes for every kind declares it (what type checking sees as `metadata`). */
const OBJECT_META: JSONSchemaProps = {
  type: 'object',
  properties: {
    name: str,
    generateName: str,
    namespace: str,
    selfLink: str,
    uid: str,
    resourceVersion: str,
    generation: { type: 'integer', format: 'int64' },
    creationTimestamp: time,
    deletionTimestamp: time,
    deletionGracePeriodSeconds: { type: 'integer', format: 'int64' },
    labels: strMap,
    annotations: strMap,
    finalizers: strList,
    ownerReferences: {
      type: 'array',
      items: {
        type: 'object',
        properties: { apiVersion: str, kind: str, name: str, uid: str, controller: { type: 'boolean' }, blockOwnerDeletion: { type: 'boolean' } },
      },
    },
    managedFields: {
      type: 'array',
      items: {
        type: 'object',
        properties: { manager: str, operation: str, apiVersion: str, time, fieldsType: str, fieldsV1: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, subresource: str },
      },
    },
  },
};

const kindSchemas = new WeakMap<JSONSchemaProps, JSONSchemaProps>();

/** A kind's schema with the full ObjectMeta, as kube resolves it from its OpenAPI. */
export function kindSchema(schema: JSONSchemaProps): JSONSchemaProps {
  let s = kindSchemas.get(schema);
  if (!s) {
    s = { ...schema, properties: { ...schema.properties, apiVersion: str, kind: str, metadata: OBJECT_META } };
    kindSchemas.set(schema, s);
  }
  return s;
}

/** The CEL type of a kind's version schema (an object named like kube's unique type names), if it has one. */
function kindType(schema: JSONSchemaProps, kind: string): Type | undefined {
  const decl = schemaDeclType(kindSchema(schema), true);
  return decl && celTypeOf(decl, `${kind}${process.hrtime()[1]}`);
}

const versionSchema = (rt: ResourceType | undefined, version: string) => rt?.versions.find((v) => v.name === version)?.schema;

/** A kind a policy is type-checked against: its group/version/kind and its version's schema. */
export interface KindToCheck {
  gvk: Gvk;
  schema: JSONSchemaProps;
}

/**
 * The kinds a policy's matchConstraints name, as kube's typesToCheck resolves them: exact resource rules only (no
 * wildcards, no subresources), at most 10, sorted by group, version and kind; kinds without a schema are left out.
 */
export function kindsToCheck(constraints: MatchResources | undefined, registry: ResourceRegistry): KindToCheck[] {
  const found = new Map<string, { gvk: Gvk; rt: ResourceType }>();
  outer: for (const rule of constraints?.resourceRules ?? []) {
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (groups.some((g) => g.includes('*')) || versions.some((v) => v.includes('*'))) continue;
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r));
    for (const group of [...groups].sort())
      for (const version of [...versions].sort())
        for (const resource of [...resources].sort()) {
          const rt = registry.lookup(group, version, resource);
          if (!rt) continue;
          const gvk = { group, version, kind: rt.names.kind };
          found.set(gvkString(gvk), { gvk, rt });
          if (found.size === MAX_TYPES_TO_CHECK) break outer;
        }
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...found.values()]
    .sort((a, b) => cmp(a.gvk.group, b.gvk.group) || cmp(a.gvk.version, b.gvk.version) || cmp(a.gvk.kind, b.gvk.kind))
    .flatMap(({ gvk, rt }) => {
      const schema = versionSchema(rt, gvk.version);
      return schema ? [{ gvk, schema }] : [];
    });
}

/** The typed environment of one kind: variables compiled in order, then the expression (any result type). */
function typedEnv(objectType: Type, paramsType: Type | undefined, variables: { name: string; expression: string }[]): Env {
  const fields = new Map<string, Type>();
  const env = kubernetesEnv()
    .extend()
    .declare('object', objectType)
    .declare('oldObject', objectType)
    .declare('namespaceObject', NAMESPACE_TYPE)
    .declare('request', REQUEST_TYPE)
    .declare('authorizer', AUTHORIZER_TYPE)
    .declare('variables', { kind: 'object', name: 'kubernetes.variables', decl: { name: 'kubernetes.variables', field: (f) => fields.get(f) } });
  registerAuthorizerLibrary(env.functions);
  if (paramsType) env.declare('params', paramsType);
  for (const v of variables) {
    const c = env.compile(v.expression);
    fields.set(v.name, c.ast?.type ?? T.dyn);
  }
  return env;
}

export function typeCheckPolicy(policy: ValidatingAdmissionPolicy, registry: ResourceRegistry): ExpressionWarning[] {
  const spec = policy.spec ?? {};
  const kinds = kindsToCheck(spec.matchConstraints, registry).flatMap(({ gvk, schema }) => {
    const type = kindType(schema, gvk.kind);
    return type ? [{ gvk, type }] : [];
  });
  if (!kinds.length) return [];
  let paramsType: Type | undefined;
  if (spec.paramKind?.apiVersion && spec.paramKind.kind) {
    const { group, version } = parseApiVersion(spec.paramKind.apiVersion);
    const rt = registry.all().find((r) => r.group === group && r.names.kind === spec.paramKind!.kind);
    const schema = versionSchema(rt, version);
    paramsType = schema && kindType(schema, spec.paramKind.kind);
  }
  const envs = kinds.map((k) => ({ gvk: k.gvk, env: typedEnv(k.type, paramsType, spec.variables ?? []) }));
  const check = (expression: string): string | undefined => {
    const messages = envs.flatMap(({ gvk, env }) => {
      const c = env.compile(expression);
      return c.ast ? [] : [`${gvkString(gvk)}: ${c.errorText}\n`];
    });
    return messages.length ? messages.join('\n') : undefined;
  };
  const warnings: ExpressionWarning[] = [];
  (spec.validations ?? []).forEach((v, i) => {
    const w = check(v.expression);
    if (w) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    if (!v.messageExpression) return;
    const m = check(v.messageExpression);
    if (m) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: m });
  });
  return warnings;
}
