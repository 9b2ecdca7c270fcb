import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { CoreEvent } from './event-types.js';

type Attributes = Record<string, (stored: KubeObject) => string>;

const ref = (field: keyof NonNullable<CoreEvent['involvedObject']>) => (e: CoreEvent) => e.involvedObject?.[field] ?? '';

/**
 * The fields a field selector may name for core/v1 Events, computed from the stored (core/v1) Event as kube's
 * event GetAttrs computes them; `source` falls back to the reporting controller for Events of the new API.
 */
const coreFields: Record<string, (e: CoreEvent) => string> = {
  'involvedObject.kind': ref('kind'),
  'involvedObject.namespace': ref('namespace'),
  'involvedObject.name': ref('name'),
  'involvedObject.uid': ref('uid'),
  'involvedObject.apiVersion': ref('apiVersion'),
  'involvedObject.resourceVersion': ref('resourceVersion'),
  'involvedObject.fieldPath': ref('fieldPath'),
  reason: (e) => e.reason ?? '',
  reportingComponent: (e) => e.reportingComponent ?? '',
  source: (e) => e.source?.component || e.reportingComponent || '',
  type: (e) => e.type ?? '',
};

export const coreEventFieldAttributes: Attributes = coreFields as Attributes;

/** events.k8s.io/v1's field names for the same fields (kube's AddFieldLabelConversionsForEvent). */
const eventsV1Names: Record<string, string> = {
  reason: 'reason',
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reportingController: 'reportingComponent',
  source: 'source',
  type: 'type',
};

export const eventsV1EventFieldAttributes: Attributes = Object.fromEntries(
  Object.entries(eventsV1Names).map(([name, core]) => [name, coreFields[core]!]),
) as Attributes;
