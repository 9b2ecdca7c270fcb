import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { apiServiceResource } from './apiservice-resource.js';
import { ApiServiceAvailabilityController } from './apiservice-availability-controller.js';

/** Serves apiregistration.k8s.io/v1 APIServices, their Available condition kept by the availability controller. */
export function apiregistrationModule(): Module {
  return defineModule('apiregistration', (c) => {
    c.register(Tokens.BuiltinResource, { useValue: apiServiceResource() });
    c.register(Tokens.Controller, { useValue: new ApiServiceAvailabilityController(c) });
  });
}
