import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { defaultedRef, describedRef, metaV1 } from './definition-names.js';

const str = (description: string): JSONSchemaProps => ({ type: 'string', description });
const int = (format: 'int32' | 'int64', description: string): JSONSchemaProps => ({ type: 'integer', format, description });
const bool = (description: string): JSONSchemaProps => ({ type: 'boolean', description });
const strings = (description: string, listType: 'atomic' | 'set'): JSONSchemaProps => ({
  type: 'array',
  description,
  items: { type: 'string', default: '' },
  'x-kubernetes-list-type': listType,
});
const gvk = (group: string, kind: string, version: string) => [{ group, kind, version }];

/** The standard apiVersion and kind properties of every kind. */
export const typeMetaProperties: Record<string, JSONSchemaProps> = {
  apiVersion: str(
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  ),
  kind: str(
    'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  ),
};

const objectMetaName = `${metaV1}.ObjectMeta`;
export const listMetaName = `${metaV1}.ListMeta`;
export const statusName = `${metaV1}.Status`;
export const deleteOptionsName = `${metaV1}.DeleteOptions`;
export const patchName = `${metaV1}.Patch`;
export const watchEventName = `${metaV1}.WatchEvent`;
const scaleName = 'io.k8s.api.autoscaling.v1.Scale';

/** The metadata property of a kind. */
export const objectMetaProperty = describedRef(
  objectMetaName,
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
);

/**
 * The apimachinery (and autoscaling/v1 Scale) definitions operations and kinds refer to, with kube's names and the
 * fields clients use; a document includes the ones it references.
 */
export const metaSchemas: Record<string, JSONSchemaProps> = {
  [objectMetaName]: {
    description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
    type: 'object',
    properties: {
      annotations: {
        type: 'object',
        description: 'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable.',
        additionalProperties: { type: 'string', default: '' },
      },
      creationTimestamp: describedRef(`${metaV1}.Time`, 'CreationTimestamp is a timestamp representing the server time when this object was created. Set by the system. Read-only.'),
      deletionGracePeriodSeconds: int('int64', 'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. Read-only.'),
      deletionTimestamp: describedRef(`${metaV1}.Time`, 'DeletionTimestamp is the time after which this resource will be deleted, set by the server when a graceful deletion is requested. Read-only.'),
      finalizers: {
        ...strings('Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list.', 'set'),
        'x-kubernetes-patch-strategy': 'merge',
      },
      generateName: str('GenerateName is an optional prefix, used by the server to generate a unique name ONLY IF the Name field has not been provided.'),
      generation: int('int64', 'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.'),
      labels: {
        type: 'object',
        description: 'Map of string keys and values that can be used to organize and categorize (scope and select) objects.',
        additionalProperties: { type: 'string', default: '' },
      },
      managedFields: {
        type: 'array',
        description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow. This is mostly for internal housekeeping, and users typically shouldn\'t need to set or understand this field.',
        items: defaultedRef(`${metaV1}.ManagedFieldsEntry`),
        'x-kubernetes-list-type': 'atomic',
      },
      name: str('Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Cannot be updated.'),
      namespace: str('Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace. Cannot be updated.'),
      ownerReferences: {
        type: 'array',
        description: 'List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected.',
        items: defaultedRef(`${metaV1}.OwnerReference`),
        'x-kubernetes-list-map-keys': ['uid'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'uid',
        'x-kubernetes-patch-strategy': 'merge',
      },
      resourceVersion: str('An opaque value that represents the internal version of this object, used for optimistic concurrency, change detection, and the watch operation. Read-only.'),
      selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
      uid: str('UID is the unique in time and space value for this object. It is generated by the server on successful creation of a resource and is not allowed to change. Read-only.'),
    },
  },
  [`${metaV1}.Time`]: {
    description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.',
    type: 'string',
    format: 'date-time',
  },
  [`${metaV1}.FieldsV1`]: {
    description: 'FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.',
    type: 'object',
  },
  [`${metaV1}.ManagedFieldsEntry`]: {
    description: 'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
    type: 'object',
    properties: {
      apiVersion: str('APIVersion defines the version of this resource that this field set applies to.'),
      fieldsType: str('FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"'),
      fieldsV1: describedRef(`${metaV1}.FieldsV1`, 'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.'),
      manager: str('Manager is an identifier of the workflow managing these fields.'),
      operation: str("Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."),
      subresource: str('Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource.'),
      time: describedRef(`${metaV1}.Time`, 'Time is the timestamp of when the ManagedFields entry was added.'),
    },
  },
  [`${metaV1}.OwnerReference`]: {
    description: 'OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.',
    type: 'object',
    required: ['apiVersion', 'kind', 'name', 'uid'],
    properties: {
      apiVersion: str('API version of the referent.'),
      blockOwnerDeletion: bool('If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.'),
      controller: bool('If true, this reference points to the managing controller.'),
      kind: str('Kind of the referent.'),
      name: str('Name of the referent.'),
      uid: str('UID of the referent.'),
    },
    'x-kubernetes-map-type': 'atomic',
  },
  [listMetaName]: {
    description: 'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
    type: 'object',
    properties: {
      continue: str('continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available.'),
      remainingItemCount: int('int64', 'remainingItemCount is the number of subsequent items in the list which are not included in this list response.'),
      resourceVersion: str("String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed. Read-only."),
      selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
    },
  },
  [statusName]: {
    description: 'Status is a return value for calls that don\'t return other objects.',
    type: 'object',
    properties: {
      ...typeMetaProperties,
      code: int('int32', 'Suggested HTTP return code for this status, 0 if not set.'),
      details: {
        ...describedRef(`${metaV1}.StatusDetails`, 'Extended data associated with the reason. Each reason may define its own extended details.'),
        'x-kubernetes-list-type': 'atomic',
      },
      message: str('A human-readable description of the status of this operation.'),
      metadata: describedRef(listMetaName, 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'),
      reason: str('A machine-readable description of why this operation is in the "Failure" status.'),
      status: str('Status of the operation. One of: "Success" or "Failure".'),
    },
    'x-kubernetes-group-version-kind': gvk('', 'Status', 'v1'),
  },
  [`${metaV1}.StatusDetails`]: {
    description: 'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response.',
    type: 'object',
    properties: {
      causes: {
        type: 'array',
        description: 'The Causes array includes more details associated with the StatusReason failure.',
        items: defaultedRef(`${metaV1}.StatusCause`),
        'x-kubernetes-list-type': 'atomic',
      },
      group: str('The group attribute of the resource associated with the status StatusReason.'),
      kind: str('The kind attribute of the resource associated with the status StatusReason.'),
      name: str('The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).'),
      retryAfterSeconds: int('int32', 'If specified, the time in seconds before the operation should be retried.'),
      uid: str('UID of the resource. (when there is a single resource which can be described).'),
    },
  },
  [`${metaV1}.StatusCause`]: {
    description: 'StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.',
    type: 'object',
    properties: {
      field: str('The field of the resource that has caused this error, as named by its JSON serialization.'),
      message: str('A human-readable description of the cause of the error.'),
      reason: str('A machine-readable description of the cause of the error. If this value is empty there is no information available.'),
    },
  },
  [deleteOptionsName]: {
    description: 'DeleteOptions may be provided when deleting an API object.',
    type: 'object',
    properties: {
      ...typeMetaProperties,
      dryRun: strings('When present, indicates that modifications should not be persisted. Valid values are: "All".', 'atomic'),
      gracePeriodSeconds: int('int64', 'The duration in seconds before the object should be deleted. The value zero indicates delete immediately.'),
      ignoreStoreReadErrorWithClusterBreakingPotential: bool('if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.'),
      orphanDependents: bool('Deprecated: please use the PropagationPolicy. Should the dependent objects be orphaned.'),
      preconditions: describedRef(`${metaV1}.Preconditions`, 'Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.'),
      propagationPolicy: str("Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background' and 'Foreground'."),
    },
    'x-kubernetes-group-version-kind': gvk('', 'DeleteOptions', 'v1'),
  },
  [`${metaV1}.Preconditions`]: {
    description: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
    type: 'object',
    properties: {
      resourceVersion: str('Specifies the target ResourceVersion'),
      uid: str('Specifies the target UID.'),
    },
  },
  [patchName]: {
    description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
    type: 'object',
  },
  [watchEventName]: {
    description: 'Event represents a single event to a watched resource.',
    type: 'object',
    required: ['type', 'object'],
    properties: {
      object: describedRef('io.k8s.apimachinery.pkg.runtime.RawExtension', 'Object is: * If Type is Added or Modified: the new state of the object. * If Type is Deleted: the state of the object immediately before deletion. * If Type is Error: *Status is recommended; other types may make sense depending on context.'),
      type: { type: 'string', default: '' },
    },
    'x-kubernetes-group-version-kind': gvk('', 'WatchEvent', 'v1'),
  },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': {
    description: 'RawExtension is used to hold extensions in external versions.',
    type: 'object',
  },
  [scaleName]: {
    description: 'Scale represents a scaling request for a resource.',
    type: 'object',
    properties: {
      ...typeMetaProperties,
      metadata: objectMetaProperty,
      spec: describedRef('io.k8s.api.autoscaling.v1.ScaleSpec', 'spec defines the behavior of the scale.'),
      status: describedRef('io.k8s.api.autoscaling.v1.ScaleStatus', 'status is the current status of the scale. Read-only.'),
    },
    'x-kubernetes-group-version-kind': gvk('autoscaling', 'Scale', 'v1'),
  },
  'io.k8s.api.autoscaling.v1.ScaleSpec': {
    description: 'ScaleSpec describes the attributes of a scale subresource.',
    type: 'object',
    properties: { replicas: int('int32', 'replicas is the desired number of instances for the scaled object.') },
  },
  'io.k8s.api.autoscaling.v1.ScaleStatus': {
    description: 'ScaleStatus represents the current status of a scale subresource.',
    type: 'object',
    required: ['replicas'],
    properties: {
      replicas: { ...int('int32', 'replicas is the actual number of observed instances of the scaled object.'), default: 0 },
      selector: str('selector is the label query over pods that should match the replicas count, in the serialized form of a label selector.'),
    },
  },
};
