/** Resource types for unit tests of the registry-driven modules (discovery, OpenAPI). */
import type { ResourceType } from '../../core/contracts/resource-type.js';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';

/** example.com/v1 widgets: a namespaced custom resource with a status subresource, short name `wd`, category `all`. */
export function widgetsType(schema: JSONSchemaProps): ResourceType {
  return {
    group: 'example.com',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'], categories: ['all'] },
    scope: 'Namespaced',
    allowUnconditionalUpdate: false,
    definedBy: { crd: 'widgets.example.com' },
    returnDeletedObject: true,
    defaultOnRead: true,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [{ name: 'v1', served: true, storage: true, subresources: { status: true }, schema }],
  };
}

/** v1 namespaces, reduced to what discovery and OpenAPI read: cluster-scoped, short name `ns`, no schema. */
export const namespaces: ResourceType = {
  group: '',
  names: { plural: 'namespaces', singular: 'namespace', kind: 'Namespace', listKind: 'NamespaceList', shortNames: ['ns'] },
  scope: 'Cluster',
  allowUnconditionalUpdate: true,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  versions: [{ name: 'v1', served: true, storage: true, subresources: { status: true } }],
};
