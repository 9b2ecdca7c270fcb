import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { readEncryptionConfiguration } from './encryption-configuration.js';
import { encryptionTransformers } from './encryption-transformers.js';
import { ReloadingTransformers } from './reloading-transformers.js';

export interface EncryptionAtRestOptions {
  /**
   * kube-apiserver's `--encryption-provider-config`: an EncryptionConfiguration (apiserver.config.k8s.io/v1). Read
   * when the module is registered: a file kube-apiserver would refuse is an error then, with kube's message.
   */
  encryptionProviderConfig: string;
  /**
   * kube-apiserver's `--encryption-provider-config-automatic-reload`: while the server runs, a change to the file
   * replaces the configuration in force when it is valid, and is logged and ignored when not. Default false: the file
   * is read at start only and later changes are ignored, as kube's.
   */
  automaticReload?: boolean;
}

/** Encryption at rest: stored values of the resources the configuration names pass through its providers. */
export function encryptionAtRest(options: EncryptionAtRestOptions): Module {
  return defineModule('encryption-at-rest', (c) => {
    if (!options.automaticReload) {
      c.register(Tokens.StorageTransformers, { useValue: encryptionTransformers(readEncryptionConfiguration(options.encryptionProviderConfig)) });
      return;
    }
    const reloading = new ReloadingTransformers(options.encryptionProviderConfig);
    c.register(Tokens.StorageTransformers, { useValue: reloading });
    c.register(Tokens.Controller, { useValue: reloading });
  });
}
