import type { KubeObject } from '../../core/contracts/resource-type.js';
import type { Endpoints } from '../services/endpoints-types.js';
import type { Service } from '../services/service-types.js';
import { availableCondition, type APIService, type APIServiceCondition } from './apiservice-types.js';

/** The Available condition of an APIService, without its transition time (set when written). */
export type AvailableCondition = Pick<APIServiceCondition, 'status' | 'reason' | 'message'>;

/** kube's local APIService controller's condition: kapi serves the group-version itself. */
export const localAvailable: AvailableCondition = { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };

/** kube's remote controller's condition once every check passed. */
export const passedAvailable: AvailableCondition = { status: 'True', reason: 'Passed', message: 'all checks passed' };

/**
 * The checks kube's remote availability controller makes before it asks the backend for discovery, from the Services
 * and Endpoints the server has (keyed `namespace/name`): the Service must exist; a ClusterIP one must have the
 * APIService's port and ready endpoint addresses with that port's name. Undefined: on to the discovery check.
 */
export function serviceCondition(
  apiService: APIService,
  services: ReadonlyMap<string, KubeObject>,
  endpoints: ReadonlyMap<string, KubeObject>,
): AvailableCondition | undefined {
  const ref = apiService.spec?.service;
  if (!ref) return undefined;
  const name = ref.name ?? '';
  const namespace = ref.namespace ?? '';
  const port = ref.port ?? 443;
  const key = `${namespace}/${name}`;
  const service = services.get(key) as Service | undefined;
  if (!service) return { status: 'False', reason: 'ServiceNotFound', message: `service/${name} in "${namespace}" is not present` };
  if ((service.spec?.type ?? 'ClusterIP') !== 'ClusterIP') return undefined;
  const servicePort = (service.spec?.ports ?? []).find((p) => p.port === port);
  if (!servicePort) return { status: 'False', reason: 'ServicePortError', message: `service/${name} in "${namespace}" is not listening on port ${port}` };
  const portName = servicePort.name ?? '';
  const ep = endpoints.get(key) as Endpoints | undefined;
  if (!ep) return { status: 'False', reason: 'EndpointsNotFound', message: `cannot find endpoints for service/${name} in "${namespace}"` };
  const active = (ep.subsets ?? []).some((s) => (s.addresses ?? []).length > 0 && (s.ports ?? []).some((p) => (p.name ?? '') === portName));
  if (!active) return { status: 'False', reason: 'MissingEndpoints', message: `endpoints for service/${name} in "${namespace}" have no addresses with port name "${portName}"` };
  return undefined;
}

/**
 * kube's SetAPIServiceCondition: the Available condition set to `condition`, its transition time moved only when its
 * status changes. Returns the new status, or undefined when nothing would change (nothing to write).
 */
export function withAvailableCondition(apiService: APIService, condition: AvailableCondition, now: string): APIService['status'] | undefined {
  const conditions = apiService.status?.conditions ?? [];
  const existing = availableCondition(apiService);
  if (existing && existing.status === condition.status && existing.reason === condition.reason && existing.message === condition.message) return undefined;
  const next: APIServiceCondition = {
    type: 'Available',
    status: condition.status,
    lastTransitionTime: existing && existing.status === condition.status ? existing.lastTransitionTime : now,
    reason: condition.reason,
    message: condition.message,
  };
  return { ...apiService.status, conditions: existing ? conditions.map((c) => (c === existing ? next : c)) : [...conditions, next] };
}
