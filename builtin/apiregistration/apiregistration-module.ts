import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { InformedAPIServiceRegistry } from './apiservice-registry.js';
import { apiServiceResource } from './apiservice-resource.js';
import { LocalAPIServiceController } from './local-apiservice-controller.js';
import { ApiServiceAvailabilityController } from './apiservice-availability-controller.js';
import { RemoteDiscoveryManager } from './remote-discovery-manager.js';
import { RemoteOpenAPIManager } from './remote-openapi-manager.js';

/**
 * Serves apiregistration.k8s.io/v1 APIServices, keeps the local ones of every group-version served here (kube's
 * autoregistration) and every APIService's Available condition (the availability controller), and gives the
 * aggregation layer and discovery the service-backed ones (`Tokens.APIServices`) and what their backends serve
 * (`Tokens.RemoteDiscovery`, `Tokens.RemoteOpenAPI`).
 */
export function apiregistrationModule(): Module {
  return defineModule('apiregistration', (c) => {
    c.register(Tokens.BuiltinResource, { useValue: apiServiceResource() });
    const apiServices = new InformedAPIServiceRegistry(c);
    c.register(Tokens.APIServices, { useValue: apiServices });
    c.register(Tokens.Controller, { useValue: apiServices });
    c.register(Tokens.Controller, { useValue: new LocalAPIServiceController(c) });
    c.register(Tokens.Controller, { useValue: new ApiServiceAvailabilityController(c) });
    const remoteDiscovery = new RemoteDiscoveryManager(c);
    c.register(Tokens.RemoteDiscovery, { useValue: remoteDiscovery });
    c.register(Tokens.Controller, { useValue: remoteDiscovery });
    const remoteOpenAPI = new RemoteOpenAPIManager(c);
    c.register(Tokens.RemoteOpenAPI, { useValue: remoteOpenAPI });
    c.register(Tokens.Controller, { useValue: remoteOpenAPI });
  });
}
