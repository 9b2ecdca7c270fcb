import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { parseGoDuration } from '../lib/go/duration.js';
import { createClientCert, kubeconfigYaml, writeKubeconfig, type CertificatePem, type KubeconfigOptions } from '../index.js';
import { UsageError } from './usage-error.js';

export const kubeconfigUsage = `Usage: kapi kubeconfig --user NAME [flags]

Issues a client certificate from kapi's CA (<data-dir>/pki/ca.key) for user NAME and prints a kubeconfig that uses
it. kapi serve trusts the certificates its CA signs (see its --client-ca-file).

Flags:
  --user NAME             the user: the certificate's CommonName (required)
  --group G               a group of the user: an Organization of the certificate; repeatable
  --expiration DURATION   how long the certificate is valid, e.g. 24h or 720h (default 8760h0m0s, one year)
  -o, --output FILE       write the kubeconfig to FILE (mode 0600) instead of printing it
  --data-dir DIR          kapi's data directory, holding the CA (default .kapi)
  --server URL            the server's URL (default: the one in <data-dir>/kubeconfig, which kapi serve writes)
  -h, --help              show this help
`;

const defaultValidityNs = 8760n * 3600n * 1_000_000_000n;
/** Where clients reach `kapi serve` with its defaults. */
const defaultServer = 'https://127.0.0.1:6443';

/** `kapi kubeconfig`: a kubeconfig with a new client certificate. Resolves with the exit code. */
export async function kubeconfig(args: string[]): Promise<number> {
  const values = parseFlags(args);
  if (values.help) {
    process.stdout.write(kubeconfigUsage);
    return 0;
  }
  const username = values.user;
  if (username === undefined) throw new UsageError('--user is required');
  if (username === '') throw new UsageError('--user must not be empty');
  const groups = values.group ?? [];
  if (groups.includes('')) throw new UsageError('--group must not be empty');
  const validityMs = parseExpiration(values.expiration);
  const dataDir = resolve(values['data-dir']);
  const ca = await readCa(dataDir);
  const server = values.server ?? (await servedUrl(dataDir)) ?? defaultServer;
  if (!/^https:\/\/\S+$/.test(server) || !URL.canParse(server)) throw new UsageError(`invalid --server "${server}": must be an https:// URL`);
  const opts: KubeconfigOptions = {
    server,
    caCertPem: ca.certPem,
    clusterName: 'kapi',
    userName: username,
    contextName: `${username}@kapi`,
    clientCertificate: await createClientCert(ca, { username, groups }, validityMs),
  };
  if (values.output) await writeKubeconfig(resolve(values.output), opts);
  else process.stdout.write(kubeconfigYaml(opts));
  return 0;
}

function parseFlags(args: string[]) {
  try {
    return parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        user: { type: 'string' },
        group: { type: 'string', multiple: true },
        expiration: { type: 'string' },
        output: { type: 'string', short: 'o' },
        'data-dir': { type: 'string', default: '.kapi' },
        server: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** A positive Go duration, in milliseconds. */
function parseExpiration(text: string | undefined): number {
  const ns = text === undefined ? defaultValidityNs : parseGoDuration(text);
  if (ns === undefined) throw new UsageError(`invalid --expiration "${text}": must be a duration such as 24h or 720h`);
  if (ns < 1_000_000_000n) throw new UsageError(`invalid --expiration "${text}": must be at least 1s`);
  const ms = Number(ns / 1_000_000n);
  if (ms > 100 * 365 * 24 * 3600 * 1000) throw new UsageError(`invalid --expiration "${text}": must be at most 100 years`);
  return ms;
}

async function readCa(dataDir: string): Promise<CertificatePem> {
  const dir = join(dataDir, 'pki');
  try {
    return { certPem: await readFile(join(dir, 'ca.crt'), 'utf8'), keyPem: await readFile(join(dir, 'ca.key'), 'utf8') };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new Error(`no CA in ${dir} (ca.crt, ca.key): kapi serve --data-dir ${dataDir} creates it at its first start`);
  }
}

/** The server URL of the kubeconfig `kapi serve` wrote into the data directory, if any. */
async function servedUrl(dataDir: string): Promise<string | undefined> {
  try {
    const config = parseYaml(await readFile(join(dataDir, 'kubeconfig'), 'utf8')) as { clusters?: { cluster?: { server?: unknown } }[] };
    const server = config?.clusters?.[0]?.cluster?.server;
    return typeof server === 'string' ? server : undefined;
  } catch {
    return undefined; // absent or unreadable: the default address
  }
}
