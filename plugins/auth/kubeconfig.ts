import { stringify } from 'yaml';
import { writePrivateFile } from './private-file.js';
import type { CertificatePem } from './certificates.js';

/** A kubeconfig's one cluster, user and context; the user holds a bearer token or a client certificate. */
export type KubeconfigOptions = {
  server: string;
  caCertPem: string;
  clusterName: string;
  userName: string;
  contextName: string;
} & ({ token: string } | { clientCertificate: CertificatePem });

/** A kubeconfig with one cluster, one user and one context, which is made current. */
export function kubeconfigYaml(opts: KubeconfigOptions): string {
  const user =
    'token' in opts
      ? { token: opts.token }
      : {
          'client-certificate-data': Buffer.from(opts.clientCertificate.certPem).toString('base64'),
          'client-key-data': Buffer.from(opts.clientCertificate.keyPem).toString('base64'),
        };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: opts.clusterName,
        cluster: { server: opts.server, 'certificate-authority-data': Buffer.from(opts.caCertPem).toString('base64') },
      },
    ],
    users: [{ name: opts.userName, user }],
    contexts: [{ name: opts.contextName, context: { cluster: opts.clusterName, user: opts.userName } }],
    'current-context': opts.contextName,
    preferences: {},
  });
}

/** Writes `kubeconfigYaml(opts)` to `path`, readable by its owner only (mode 0600). */
export async function writeKubeconfig(path: string, opts: KubeconfigOptions): Promise<void> {
  await writePrivateFile(path, kubeconfigYaml(opts));
}

/**
 * The https URL a local client uses to reach a server bound to `host`: an unspecified address (0.0.0.0, ::) is
 * reached at 127.0.0.1; IPv6 literals are bracketed.
 */
export function clientUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `https://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
