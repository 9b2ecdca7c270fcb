import type { ResourceType } from '../../core/contracts/resource-type.js';
import { formatDateRFC3339 } from '../../lib/go/timestamp.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { apiServiceGoType } from './apiservice-go-type.js';
import { apiServiceTablePrinter } from './apiservice-printer.js';
import { apiregistrationGroup, type APIService } from './apiservice-types.js';
import { validateAPIService, validateAPIServiceStatus } from './apiservice-validation.js';

/** The served APIService resource, as controllers read and write it. */
export const apiServiceResourceRef = { group: apiregistrationGroup, resource: 'apiservices' };

/** kube's v1 defaulting: a service's port is 443 unless given. */
function defaultAPIService(apiService: APIService): void {
  const service = apiService.spec?.service;
  if (service) service.port ??= 443;
}

/** kube marks a local APIService available as it is created: it is served by the server itself. */
function localAvailableCondition() {
  return { type: 'Available', status: 'True', lastTransitionTime: formatDateRFC3339(new Date()), reason: 'Local', message: 'Local APIServices are always available' };
}

/**
 * apiregistration.k8s.io/v1 APIService: cluster-scoped, named `version.group`, with a status subresource (the generic
 * store keeps the status on writes of the main resource and the rest on status writes). A new one's status starts
 * empty, or Available for a local APIService, as kube-aggregator's strategy.
 */
export function apiServiceResource(): ResourceType {
  return {
    group: apiregistrationGroup,
    names: { plural: 'apiservices', singular: 'apiservice', kind: 'APIService', listKind: 'APIServiceList', categories: ['api-extensions'] },
    scope: 'Cluster',
    nameValidation: 'path-segment',
    allowUnconditionalUpdate: false,
    withoutGeneration: true,
    goType: apiServiceGoType,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [{ name: 'v1', served: true, storage: true, schema: builtinSchema('apiservice.v1'), subresources: { status: true }, tablePrinter: apiServiceTablePrinter }],
    strategy: {
      prepareForCreate(obj) {
        const apiService = obj as APIService;
        defaultAPIService(apiService);
        apiService.status = apiService.spec?.service ? {} : { conditions: [localAvailableCondition()] };
      },
      prepareForUpdate: (obj) => defaultAPIService(obj as APIService),
      validate: (obj, _old, subresource) => (subresource === 'status' ? validateAPIServiceStatus(obj as APIService) : validateAPIService(obj as APIService)),
    },
  };
}
