import type { Module } from '../../module.js';
import { Tokens } from '../../tokens.js';
import { namespaceResource } from './namespace-resource.js';
import { namespaceLifecycleGate } from './namespace-lifecycle-gate.js';
import { NamespaceController } from './namespace-controller.js';

/** Serves v1 Namespaces with kube's lifecycle: initial namespaces, lifecycle admission, cleanup on delete. */
export function namespacesModule(): Module {
  return (c) => {
    c.register(Tokens.BuiltinResource, { useValue: namespaceResource() });
    const controller = new NamespaceController(c);
    c.register(Tokens.WriteGate, { useValue: namespaceLifecycleGate(controller) });
    c.register(Tokens.Controller, { useValue: controller });
  };
}
