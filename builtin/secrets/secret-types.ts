/** core/v1 SecretType values and the data keys kube's validation knows them by (k8s.io/api/core/v1 types.go). */
export const secretTypes = {
  opaque: 'Opaque',
  serviceAccountToken: 'kubernetes.io/service-account-token',
  dockercfg: 'kubernetes.io/dockercfg',
  dockerConfigJson: 'kubernetes.io/dockerconfigjson',
  basicAuth: 'kubernetes.io/basic-auth',
  sshAuth: 'kubernetes.io/ssh-auth',
  tls: 'kubernetes.io/tls',
  /** Validated as any other type (kube's ValidateSecret has no case for it): the token's fields are the bootstrap signer's concern. */
  bootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;

/** The annotation a service-account-token Secret names its ServiceAccount by. */
export const serviceAccountNameKey = 'kubernetes.io/service-account.name';

export const secretKeys = {
  dockercfg: '.dockercfg',
  dockerConfigJson: '.dockerconfigjson',
  basicAuthUsername: 'username',
  basicAuthPassword: 'password',
  sshAuthPrivateKey: 'ssh-privatekey',
  tlsCert: 'tls.crt',
  tlsPrivateKey: 'tls.key',
} as const;
