/** A path or query parameter of an operation, independent of the OpenAPI version it is rendered in. */
export interface Parameter {
  name: string;
  in: 'path' | 'query';
  description: string;
  type: 'string' | 'integer' | 'boolean';
}

const query = (name: string, type: Parameter['type'], description: string): Parameter => ({ name, in: 'query', type, description });

export const namespaceParameter: Parameter = {
  name: 'namespace',
  in: 'path',
  type: 'string',
  description: 'object name and auth scope, such as for teams and projects',
};

export function nameParameter(kind: string): Parameter {
  return { name: 'name', in: 'path', type: 'string', description: `name of the ${kind}` };
}

const p = {
  allowWatchBookmarks: query('allowWatchBookmarks', 'boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK", sent at the server\'s discretion. Ignored when this is not a watch.'),
  continue: query('continue', 'string', 'The continue token of a previous paginated list response: the server returns the next chunk of results.'),
  dryRun: query('dryRun', 'string', 'When present, modifications are not persisted. An invalid or unrecognized dryRun directive fails the request. Valid values are: - All: all dry run stages will be processed'),
  fieldManager: query('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. At most 128 printable characters.'),
  fieldSelector: query('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  fieldValidation: query(
    'fieldValidation',
    'string',
    'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: - Ignore: drops them silently. - Warn: drops them and sends a warning for each. - Strict: fails the request with a BadRequest error.',
  ),
  force: query('force', 'boolean', 'Force re-acquires fields owned by other managers on Apply requests. Must be unset for non-apply patch requests.'),
  gracePeriodSeconds: query('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted. The value zero indicates delete immediately. Defaults to the default of the type.'),
  ignoreStoreReadErrorWithClusterBreakingPotential: query(
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'boolean',
    'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.',
  ),
  labelSelector: query('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  limit: query('limit', 'integer', 'limit is the maximum number of responses to return for a list call; when more exist, the server sets the continue field of the list metadata.'),
  orphanDependents: query('orphanDependents', 'boolean', 'Deprecated: please use the PropagationPolicy. Should the dependent objects be orphaned.'),
  pretty: query('pretty', 'string', "If 'true', then the output is pretty printed."),
  propagationPolicy: query('propagationPolicy', 'string', "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background' and 'Foreground'."),
  resourceVersion: query('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from. Defaults to unset.'),
  resourceVersionMatch: query('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls. Defaults to unset.'),
  sendInitialEvents: query('sendInitialEvents', 'boolean', 'With watch=true, starts the watch stream with synthetic events for the current state of the collection, followed by a "BOOKMARK" event.'),
  timeoutSeconds: query('timeoutSeconds', 'integer', 'Timeout for the list/watch call, regardless of any activity or inactivity.'),
  watch: query('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.'),
};

/** Every operation takes `pretty`. */
export const commonParameters = [p.pretty];
/** list and watch. */
export const listParameters = [p.allowWatchBookmarks, p.continue, p.fieldSelector, p.labelSelector, p.limit, p.resourceVersion, p.resourceVersionMatch, p.sendInitialEvents, p.timeoutSeconds, p.watch];
/** create and update (PUT). */
export const writeParameters = [p.dryRun, p.fieldManager, p.fieldValidation];
/** patch: kubectl looks for fieldValidation here to know the server validates fields. */
export const patchParameters = [...writeParameters, p.force];
export const deleteParameters = [p.dryRun, p.gracePeriodSeconds, p.ignoreStoreReadErrorWithClusterBreakingPotential, p.orphanDependents, p.propagationPolicy];
export const deleteCollectionParameters = [
  ...deleteParameters,
  p.continue,
  p.fieldSelector,
  p.labelSelector,
  p.limit,
  p.resourceVersion,
  p.resourceVersionMatch,
  p.sendInitialEvents,
  p.timeoutSeconds,
];
