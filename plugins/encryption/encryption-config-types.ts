/** apiserver.config.k8s.io/v1 EncryptionConfiguration, the fields kapi reads (others are ignored, as kube's decoder does). */
export interface EncryptionConfiguration {
  resources: ResourceConfiguration[];
}

export interface ResourceConfiguration {
  /** `secrets`, `widgets.example.com`, `*.example.com`, `*.` (the core group), `*.*`. */
  resources: string[];
  /** In order: the first writes, all read. */
  providers: ProviderConfiguration[];
}

/** Exactly one of these is set (validated). */
export interface ProviderConfiguration {
  aesgcm?: KeysConfiguration;
  aescbc?: KeysConfiguration;
  secretbox?: KeysConfiguration;
  identity?: Record<string, never>;
  kms?: Record<string, unknown>;
}

export interface KeysConfiguration {
  keys: Key[];
}

export interface Key {
  name: string;
  /** Base64 (standard encoding). */
  secret: string;
}
