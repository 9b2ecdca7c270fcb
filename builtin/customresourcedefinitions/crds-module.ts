import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { crdResource } from './crd-resource.js';
import { CrdController } from './crd-controller.js';
import { CrdFileLoader } from './crd-file-loader.js';

/** Serves CustomResourceDefinitions and the custom resources they define; installs `crdPaths` at start. */
export function crdsModule(opts: { crdPaths?: string[] } = {}): Module {
  return defineModule('customresourcedefinitions', (c) => {
    c.register(Tokens.BuiltinResource, { useValue: crdResource() });
    if (opts.crdPaths?.length) c.register(Tokens.Controller, { useValue: new CrdFileLoader(c, opts.crdPaths) });
    c.register(Tokens.Controller, { useValue: new CrdController(c) });
  });
}
