import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';

/** The package prefix of apimachinery's meta/v1 definitions. */
export const metaV1 = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** Go packages of the built-in groups whose definition names do not follow `io.k8s.api.<first label>`. */
const builtinPackages: Record<string, string> = {
  '': 'io.k8s.api.core',
  'apiextensions.k8s.io': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions',
  'apiregistration.k8s.io': 'io.k8s.kube-aggregator.pkg.apis.apiregistration',
  'internal.apiserver.k8s.io': 'io.k8s.api.apiserverinternal',
};

/**
 * The OpenAPI definition name kube gives a kind: its Go package reversed for built-ins (`io.k8s.api.core.v1.Namespace`),
 * the reversed group for kinds typed by their schema, as custom resources are (`com.example.v1.Widget`).
 */
export function definitionName(group: string, version: string, kind: string, typedBySchema: boolean): string {
  return `${typedBySchema ? reversedGroup(group) : builtinPackage(group)}.${version}.${kind}`;
}

function builtinPackage(group: string): string {
  const known = builtinPackages[group];
  if (known) return known;
  if (!group.includes('.') || group.endsWith('.k8s.io')) return `io.k8s.api.${group.split('.')[0]}`;
  return reversedGroup(group);
}

function reversedGroup(group: string): string {
  return group.split('.').reverse().join('.');
}

/** A reference to a definition, in OpenAPI v3 form (`#/components/schemas/NAME`). */
export function schemaRef(name: string): JSONSchemaProps {
  return { $ref: `#/components/schemas/${name}` };
}

/** A property holding a referenced definition, described: kube wraps the reference in allOf. */
export function describedRef(name: string, description: string): JSONSchemaProps {
  return { allOf: [schemaRef(name)], description };
}

/**
 * List items holding a referenced definition, defaulted to `{}`: kube wraps the reference in allOf (OpenAPI v3 allows no
 * sibling of `$ref`, and gnostic's protobuf encoding has no room for one); the v2 form is a plain `$ref` beside it.
 */
export function defaultedRef(name: string): JSONSchemaProps {
  return { allOf: [schemaRef(name)], default: {} };
}
