import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { apiServiceResource } from './apiservice-resource.js';

/** Serves apiregistration.k8s.io/v1 APIServices. */
export function apiregistrationModule(): Module {
  return defineModule('apiregistration', (c) => {
    c.register(Tokens.BuiltinResource, { useValue: apiServiceResource() });
  });
}
