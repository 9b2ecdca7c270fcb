import type { ResourceType } from '../../core/contracts/resource-type.js';
import type { FlowSchema, PriorityLevelConfiguration } from '../../core/contracts/flowcontrol.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import { mandatoryFlowSchemas } from './bootstrap-configuration.js';
import { defaultFlowSchema, defaultPriorityLevelConfiguration } from './flowcontrol-defaults.js';
import { flowSchemaGoType, priorityLevelConfigurationGoType } from './flowcontrol-go-types.js';
import { flowSchemaTablePrinter, priorityLevelConfigurationTablePrinter } from './flowcontrol-printers.js';
import { validateConditions, validateFlowSchema, validateMandatorySpec, validatePriorityLevelConfiguration } from './flowcontrol-validation.js';

export const flowcontrolGroup = 'flowcontrol.apiserver.k8s.io';

/** The served resources, as controllers read and write them. */
export const flowSchemaResourceRef = { group: flowcontrolGroup, resource: 'flowschemas' };
export const priorityLevelResourceRef = { group: flowcontrolGroup, resource: 'prioritylevelconfigurations' };

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchema: cluster-scoped, with a status subresource (a new one's status starts
 * empty, as kube's strategy clears it), defaulted as kube's v1 defaults it. The spec of a mandatory one (exempt, catch-all) must be kube's own.
 */
export function flowSchemaResource(): ResourceType {
  const mandatory = new Map(mandatoryFlowSchemas().map((fs) => [fs.metadata!.name!, fs.spec]));
  return {
    group: flowcontrolGroup,
    names: { plural: 'flowschemas', singular: 'flowschema', kind: 'FlowSchema', listKind: 'FlowSchemaList' },
    scope: 'Cluster',
    allowUnconditionalUpdate: true,
    goType: flowSchemaGoType,
    verbs,
    versions: [{ name: 'v1', served: true, storage: true, schema: builtinSchema('flowschema.v1'), subresources: { status: true }, tablePrinter: flowSchemaTablePrinter }],
    strategy: {
      prepareForCreate(obj) {
        defaultFlowSchema(obj as FlowSchema);
        (obj as FlowSchema).status = {};
      },
      prepareForUpdate: (obj) => defaultFlowSchema(obj as FlowSchema),
      validate: (obj, _old, subresource) => {
        const fs = obj as FlowSchema;
        if (subresource === 'status') return validateConditions(fs);
        return [...validateFlowSchema(fs), ...validateMandatorySpec(fs, mandatory.get(fs.metadata?.name ?? '')), ...validateConditions(fs)];
      },
    },
  };
}

/** flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration: cluster-scoped, with a status subresource. */
export function priorityLevelConfigurationResource(): ResourceType {
  return {
    group: flowcontrolGroup,
    names: { plural: 'prioritylevelconfigurations', singular: 'prioritylevelconfiguration', kind: 'PriorityLevelConfiguration', listKind: 'PriorityLevelConfigurationList' },
    scope: 'Cluster',
    allowUnconditionalUpdate: true,
    goType: priorityLevelConfigurationGoType,
    verbs,
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: builtinSchema('prioritylevelconfiguration.v1'),
        subresources: { status: true },
        tablePrinter: priorityLevelConfigurationTablePrinter,
      },
    ],
    strategy: {
      prepareForCreate(obj) {
        defaultPriorityLevelConfiguration(obj as PriorityLevelConfiguration);
        (obj as PriorityLevelConfiguration).status = {};
      },
      prepareForUpdate: (obj) => defaultPriorityLevelConfiguration(obj as PriorityLevelConfiguration),
      validate: (obj, _old, subresource) => {
        const pl = obj as PriorityLevelConfiguration;
        if (subresource === 'status') return validateConditions(pl);
        return [...validatePriorityLevelConfiguration(pl), ...validateConditions(pl)];
      },
    },
  };
}
