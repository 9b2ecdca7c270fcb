import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { schemaTyped } from '../contracts/resource-type.js';
import type { ServedResource } from '../discovery/served-groups.js';
import type { GroupVersionKind } from '../discovery/served-subresources.js';
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

/** The definition name of a storage subresource's own kind (RestStorage.kind): named as kinds typed by their schema are. */
export function storageKindName(kind: GroupVersionKind): string {
  return definitionName(kind.group, kind.version, kind.kind, true);
}

/**
 * The kind's definition and its list kind's, as kube publishes them for custom resources, and the definitions of the
 * kinds of its storage subresources (RestStorage.kind with RestStorage.schema).
 */
export function kindSchemas(served: ServedResource): Record<string, JSONSchemaProps> {
  const { type, version } = served;
  const names = kindNames(served);
  const gvk = (kind: string) => ({ group: type.group, version: version.name, kind });
  const subresourceKinds = Object.values(type.storageSubresources ?? {}).flatMap((s) => (s.kind ? [[storageKindName(s.kind), objectKindSchema(s.schema, s.kind)]] : []));
  return {
    ...Object.fromEntries(subresourceKinds), // the resource's own kind wins, should a storage name it
    [names.kind]: objectKindSchema(version.schema, gvk(type.names.kind)),
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
      'x-kubernetes-group-version-kind': gvkExtension(gvk(type.names.listKind)),
    },
  };
}

/**
 * A kind's definition: its schema with the standard apiVersion, kind and metadata properties, tagged with its
 * group-version-kind. Without a schema it keeps any fields.
 */
function objectKindSchema(schema: JSONSchemaProps | undefined, gvk: GroupVersionKind): JSONSchemaProps {
  const { properties, ...rest } = schema ?? { 'x-kubernetes-preserve-unknown-fields': true };
  return {
    ...rest,
    type: 'object',
    properties: { ...properties, ...typeMetaProperties, metadata: objectMetaProperty },
    'x-kubernetes-group-version-kind': gvkExtension(gvk),
  };
}

/** x-kubernetes-group-version-kind of a definition, with kube's key order. */
function gvkExtension({ group, version, kind }: GroupVersionKind) {
  return [{ group, kind, version }];
}
