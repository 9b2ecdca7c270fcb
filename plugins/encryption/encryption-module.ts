import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { readEncryptionConfiguration } from './encryption-configuration.js';
import { encryptionTransformers } from './encryption-transformers.js';

export interface EncryptionAtRestOptions {
  /**
   * kube-apiserver's `--encryption-provider-config`: an EncryptionConfiguration (apiserver.config.k8s.io/v1). Read
   * when the module is registered: a file kube-apiserver would refuse is an error then, with kube's message.
   */
  encryptionProviderConfig: string;
}

/** Encryption at rest: stored values of the resources the configuration names pass through its providers. */
export function encryptionAtRest(options: EncryptionAtRestOptions): Module {
  return defineModule('encryption-at-rest', (c) => {
    const transformers = encryptionTransformers(readEncryptionConfiguration(options.encryptionProviderConfig));
    c.register(Tokens.StorageTransformers, { useValue: transformers });
  });
}
