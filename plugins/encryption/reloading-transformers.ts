import type { Controller } from '../../core/contracts/controller.js';
import type { StorageTransformers, ValueTransformer } from '../../core/contracts/value-transformer.js';
import { followFile, type FollowedFile } from '../../lib/fs/follow-file.js';
import { parseEncryptionConfiguration, readEncryptionConfigurationFile } from './encryption-configuration.js';
import { encryptionTransformers } from './encryption-transformers.js';
import { log } from '../../lib/log/logger.js';

/**
 * `--encryption-provider-config-automatic-reload` (kube's DynamicEncryptionConfigContent over DynamicTransformers):
 * the file is read and validated when this is constructed (an invalid file fails the start), then followed. When its
 * content changes, a valid configuration's transformers replace those in force for every resource at once — new
 * writes use its first provider, and values under any key it names read — while an invalid one is logged and leaves
 * them in force.
 */
export class ReloadingTransformers implements StorageTransformers, Controller {
  readonly name = 'encryption-config-reload';
  private current: StorageTransformers;
  /** The content of the configuration in force. */
  private text: string;
  private followed?: FollowedFile;

  constructor(private readonly file: string) {
    this.text = readEncryptionConfigurationFile(file);
    this.current = encryptionTransformers(parseEncryptionConfiguration(file, this.text));
  }

  /** Stores keep the transformer of their resource for the server's life: it asks the configuration in force at each call. */
  forResource(group: string, resource: string): ValueTransformer {
    return {
      fromStorage: (stored, key) => this.current.forResource(group, resource).fromStorage(stored, key),
      toStorage: (data, key) => this.current.forResource(group, resource).toStorage(data, key),
    };
  }

  async start(): Promise<void> {
    this.followed = followFile(this.file, () => this.reload());
  }

  async stop(): Promise<void> {
    this.followed?.close();
  }

  private reload(): void {
    try {
      const text = readEncryptionConfigurationFile(this.file);
      if (text === this.text) return;
      this.current = encryptionTransformers(parseEncryptionConfiguration(this.file, text));
      this.text = text;
      log.info(`loaded a new encryption configuration from ${this.file}`);
    } catch (err) {
      log.error(`error processing encryption config file ${this.file}: ${(err as Error).message}; the previous configuration stays in force`);
    }
  }
}
