import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { secretResource } from './secret-resource.js';

/** Serves v1 Secrets (`kubectl create secret generic|tls|docker-registry`, `kubectl get secrets`). */
export function secretsModule(): Module {
  return defineModule('secrets', (c) => {
    c.register(Tokens.BuiltinResource, { useValue: secretResource() });
  });
}
