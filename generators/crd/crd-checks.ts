/**
 * What kube-apiserver would refuse in a generated CRD's schemas, found with kapi's own rules before anything is
 * written: structural schema, valid defaults, the OpenAPI subset, and CEL rules that compile within their cost
 * budget. Each problem points at the TypeScript that produced it.
 */
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { compileCrdRules } from '../../schemas/cel/crd-rules.js';
import { validateCrdSchema } from '../../schemas/crd-schema-rules.js';
import type { SchemaCause } from '../../schemas/validation-errors.js';
import type { Crd } from './crd-assembly.js';
import { formatLocation, GenCrdError, type SourceLocation } from './gen-crd-error.js';
import { ruleLocation } from './schema-markers.js';

/** The source of the schema node (or CEL rule) a cause's field path names: the deepest one that has a location. */
function causeLocation(schema: JSONSchemaProps, path: string, locations: WeakMap<object, SourceLocation>): SourceLocation | undefined {
  let node: JSONSchemaProps | undefined = schema;
  let found = locations.get(schema);
  const step = /^\.(?:properties\[([^\]]+)\]|(items)|(additionalProperties)|x-kubernetes-validations\[(\d+)\])/;
  let rest = path;
  for (let m = step.exec(rest); m && node; m = step.exec(rest)) {
    rest = rest.slice(m[0].length);
    if (m[4] !== undefined) return ruleLocation(node['x-kubernetes-validations']?.[Number(m[4])] ?? {}) ?? found;
    const next: unknown = m[1] !== undefined ? node.properties?.[m[1]] : m[2] ? node.items : node.additionalProperties;
    node = typeof next === 'object' ? (next as JSONSchemaProps) : undefined;
    if (node && locations.has(node)) found = locations.get(node);
  }
  return found;
}

/** Throws a GenCrdError listing every problem kube would report for the CRD's schemas. */
export function checkCrd(crd: Crd, locations: WeakMap<object, SourceLocation>): void {
  const problems: string[] = [];
  crd.spec.versions.forEach((v, i) => {
    const prefix = `spec.versions[${i}].schema.openAPIV3Schema`;
    const schema = v.schema.openAPIV3Schema;
    const causes: SchemaCause[] = [
      ...validateCrdSchema(schema, prefix, { statusEnabled: v.subresources?.status !== undefined }),
      ...compileCrdRules(schema, prefix).errors,
    ];
    for (const c of causes) {
      const loc = c.field.startsWith(prefix) ? causeLocation(schema, c.field.slice(prefix.length), locations) : undefined;
      problems.push(`${loc ? `${formatLocation(loc)}: ` : ''}CustomResourceDefinition ${crd.metadata.name} version ${v.name}: ${c.field}: ${c.message}`);
    }
  });
  if (problems.length) throw new GenCrdError(problems);
}
