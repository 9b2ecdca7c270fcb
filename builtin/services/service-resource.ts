import type { ResourceStrategy, ResourceType } from '../../core/contracts/resource-type.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { compileSchema } from '../../schemas/structural-schema.js';
import { serviceGoType } from './service-go-type.js';
import { serviceTablePrinter } from './service-printer.js';
import { defaultService, dropTypeDependentFields, normalizeClusterIPs } from './service-defaults.js';
import { serviceCauses, serviceStatusCauses, serviceUpdateCauses } from './service-validation.js';
import type { Service } from './service-types.js';

/** The served Service resource, as controllers read and write it. */
export const serviceResourceRef = { group: '', resource: 'services' };

/**
 * v1 Service: namespaced, named as a DNS-1035 label, with a status subresource. `beginWrite` takes its cluster IP
 * and node ports (the ServiceAllocator's); without it the type serves reads only as far as informers need it.
 */
export function serviceResource(beginWrite?: ResourceStrategy['beginWrite']): ResourceType {
  const schema = builtinSchema('service.v1');
  const compiled = compileSchema(schema);
  // Already decoded into its Go type (goType): unknown fields are dropped, then kube's defaults.
  const decode = (svc: Service) => {
    compiled.prune(svc);
    defaultService(svc);
  };
  return {
    group: '',
    names: { plural: 'services', singular: 'service', kind: 'Service', listKind: 'ServiceList', shortNames: ['svc'], categories: ['all'] },
    scope: 'Namespaced',
    nameValidation: 'dns1035-label',
    allowUnconditionalUpdate: true,
    // kube's strategy AllowCreateOnUpdate: a PUT to a missing name creates it.
    allowCreateOnUpdate: true,
    withoutGeneration: true,
    goType: serviceGoType,
    // kube's service storage has no deletecollection
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema,
        subresources: { status: true },
        tablePrinter: serviceTablePrinter,
        // kube's Service field selectors (1.31+): metadata.name, metadata.namespace, spec.clusterIP, spec.type
        selectableFields: [{ jsonPath: '.spec.clusterIP' }, { jsonPath: '.spec.type' }],
      },
    ],
    strategy: {
      prepareForCreate(svc: Service) {
        decode(svc);
        normalizeClusterIPs(svc.spec!, undefined);
        svc.status = { loadBalancer: {} };
      },
      prepareForUpdate(svc: Service, old: Service) {
        decode(svc);
        dropTypeDependentFields(svc.spec!, old.spec ?? {});
        normalizeClusterIPs(svc.spec!, old.spec ?? {});
      },
      prepareForStatusUpdate: (svc: Service) => compiled.prune(svc),
      validate: (svc: Service, old: Service | undefined, subresource: string) =>
        subresource === 'status' ? serviceStatusCauses(svc) : old ? serviceUpdateCauses(svc, old) : serviceCauses(svc),
      ...(beginWrite ? { beginWrite } : {}),
    },
  };
}
