import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { namespaceResource } from './namespace-resource.js';
import { NamespaceController } from './namespace-controller.js';

/**
 * Serves v1 Namespaces with kube's lifecycle: initial namespaces, cleanup on delete, and the lookup the
 * NamespaceLifecycle admission plugin (admission/) uses.
 */
export function namespacesModule(): Module {
  return defineModule('namespaces', (c) => {
    c.register(Tokens.BuiltinResource, { useValue: namespaceResource() });
    const controller = new NamespaceController(c);
    c.register(Tokens.NamespaceLookup, { useValue: controller });
    c.register(Tokens.Controller, { useValue: controller });
  });
}
