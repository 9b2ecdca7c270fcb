import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { configMapResource } from './configmap-resource.js';

/** Serves v1 ConfigMaps (`kubectl create configmap`, `kubectl get cm`). */
export function configMapsModule(): Module {
  return defineModule('configmaps', (c) => {
    c.register(Tokens.BuiltinResource, { useValue: configMapResource() });
  });
}
