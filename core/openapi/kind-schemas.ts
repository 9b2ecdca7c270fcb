import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { schemaTyped } from '../contracts/resource-type.js';
import type { ServedResource } from '../discovery/served-groups.js';
import { definitionName, describedRef, schemaRef } from './definition-names.js';
import { listMetaName, objectMetaProperty, typeMetaProperties } from './meta-schemas.js';

/** The definition names of a served resource's kind and list kind. */
export function kindNames({ type, version }: ServedResource): { kind: string; list: string } {
  const typedBySchema = schemaTyped(type);
  return {
    kind: definitionName(type.group, version.name, type.names.kind, typedBySchema),
    list: definitionName(type.group, version.name, type.names.listKind, typedBySchema),
  };
}

/**
 * The kind's definition (the version's schema with the standard apiVersion, kind and metadata properties, tagged with
 * its group-version-kind) and its list kind's, as kube publishes them for custom resources. A version without a schema
 * preserves unknown fields.
 */
export function kindSchemas(served: ServedResource): Record<string, JSONSchemaProps> {
  const { type, version } = served;
  const names = kindNames(served);
  const gvk = (kind: string) => [{ group: type.group, kind, version: version.name }];
  const { properties, ...rest } = version.schema ?? { 'x-kubernetes-preserve-unknown-fields': true };
  return {
    [names.kind]: {
      ...rest,
      type: 'object',
      properties: { ...properties, ...typeMetaProperties, metadata: objectMetaProperty },
      'x-kubernetes-group-version-kind': gvk(type.names.kind),
    },
    [names.list]: {
      description: `${type.names.listKind} is a list of ${type.names.kind}`,
      type: 'object',
      required: ['items'],
      properties: {
        ...typeMetaProperties,
        items: {
          description: `List of ${type.names.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
          type: 'array',
          items: schemaRef(names.kind),
        },
        metadata: describedRef(listMetaName, 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'),
      },
      'x-kubernetes-group-version-kind': gvk(type.names.listKind),
    },
  };
}
