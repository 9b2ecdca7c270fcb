import { stringify } from 'yaml';
import { writePrivateFile } from './private-file.js';

export interface KubeconfigOptions {
  server: string;
  caCertPem: string;
  token: string;
  clusterName: string;
  userName: string;
  contextName: string;
}

/** Writes a kubeconfig (mode 0600) with one cluster, one token user and one context, which is made current. */
export async function writeKubeconfig(path: string, opts: KubeconfigOptions): Promise<void> {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: opts.clusterName,
        cluster: { server: opts.server, 'certificate-authority-data': Buffer.from(opts.caCertPem).toString('base64') },
      },
    ],
    users: [{ name: opts.userName, user: { token: opts.token } }],
    contexts: [{ name: opts.contextName, context: { cluster: opts.clusterName, user: opts.userName } }],
    'current-context': opts.contextName,
    preferences: {},
  };
  await writePrivateFile(path, stringify(config));
}

/**
 * The https URL a local client uses to reach a server bound to `host`: an unspecified address (0.0.0.0, ::) is
 * reached at 127.0.0.1; IPv6 literals are bracketed.
 */
export function clientUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `https://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
