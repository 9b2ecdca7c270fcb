import { defineModule, resolveLater, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { FlowControlConfigurationController } from './configuration-controller.js';
import { flowSchemaResource, priorityLevelConfigurationResource } from './flowcontrol-resources.js';
import { InformerFlowControlConfiguration } from './informer-configuration.js';

/**
 * Serves flowcontrol.apiserver.k8s.io/v1 FlowSchemas and PriorityLevelConfigurations, keeps kube's mandatory and
 * suggested objects in place, and hands them to the server's priority and fairness filter.
 */
export function flowcontrolModule(): Module {
  return defineModule('flowcontrol', (c) => {
    const flowSchemas = flowSchemaResource();
    const priorityLevels = priorityLevelConfigurationResource();
    c.register(Tokens.BuiltinResource, { useValue: flowSchemas });
    c.register(Tokens.BuiltinResource, { useValue: priorityLevels });
    const informers = resolveLater(c, Tokens.Informers);
    const configuration = new InformerFlowControlConfiguration(
      () => informers().forResource(flowSchemas),
      () => informers().forResource(priorityLevels),
    );
    c.register(Tokens.FlowControlConfiguration, { useValue: configuration });
    c.register(Tokens.Controller, { useValue: new FlowControlConfigurationController(c, configuration) });
  });
}
