import type { ResourceType } from '../../core/contracts/resource-type.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { compileSchema } from '../../schemas/structural-schema.js';
import { endpointsGoType } from './endpoints-go-type.js';
import { endpointsTablePrinter } from './endpoints-printer.js';
import { endpointsCauses } from './endpoints-validation.js';
import type { Endpoints } from './endpoints-types.js';

/** What kube-apiserver 1.33+ answers every request on v1 Endpoints with (KEP-4974). */
const endpointsDeprecationWarning = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

/**
 * v1 Endpoints: what users write for a Service without selector (kapi has no pods, so no endpoints controller fills
 * them in). Deprecated in kube 1.33+, with kube's warning on every request.
 */
export function endpointsResource(): ResourceType {
  const schema = builtinSchema('endpoints.v1');
  const compiled = compileSchema(schema);
  // Already decoded into its Go type (goType): unknown fields are dropped, then kube's SetDefaults_Endpoints.
  const decode = (ep: Endpoints) => {
    compiled.prune(ep);
    for (const ss of ep.subsets ?? []) for (const port of ss.ports ?? []) port.protocol ||= 'TCP';
  };
  return {
    group: '',
    names: { plural: 'endpoints', singular: 'endpoints', kind: 'Endpoints', listKind: 'EndpointsList', shortNames: ['ep'] },
    scope: 'Namespaced',
    allowUnconditionalUpdate: true,
    // kube's strategy AllowCreateOnUpdate: a PUT to a missing name creates it.
    allowCreateOnUpdate: true,
    withoutGeneration: true,
    goType: endpointsGoType,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        deprecated: true,
        deprecationWarning: endpointsDeprecationWarning,
        schema,
        tablePrinter: endpointsTablePrinter,
      },
    ],
    strategy: {
      prepareForCreate: decode,
      prepareForUpdate: decode,
      validate: (ep: Endpoints) => endpointsCauses(ep),
    },
  };
}
