import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createServer, get, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clientUrl, ensurePki, writeKubeconfig, type Pki } from '../../plugins/auth/index.js';

const token = 'test-token-0123456789';

/** A loopback HTTPS server answering `ok` to requests with the test bearer token, 401 to others. */
async function startServer(pki: Pki): Promise<{ server: Server; port: number }> {
  const server = createServer({ cert: pki.certPem, key: pki.keyPem }, (req, res) => {
    const ok = req.headers.authorization === `Bearer ${token}`;
    res.writeHead(ok ? 200 : 401, { 'content-type': 'text/plain' }).end(ok ? 'ok' : 'unauthorized');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function fetchText(url: string, ca: string, servername?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { ca, servername, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => resolve(body));
    }).on('error', reject);
  });
}

test('node completes a TLS handshake trusting only the CA', async (t) => {
  const pki = await ensurePki(join(await mkdtemp(join(tmpdir(), 'kapi-tls-')), 'pki'), { hosts: [] });
  const { server, port } = await startServer(pki);
  t.teardown(() => server.close());
  t.is(await fetchText(`https://127.0.0.1:${port}/`, pki.caCertPem), 'ok');
  t.is(await fetchText(`https://127.0.0.1:${port}/`, pki.caCertPem, 'localhost'), 'ok');
  const other = await ensurePki(join(await mkdtemp(join(tmpdir(), 'kapi-tls-')), 'pki'), { hosts: [] });
  await t.throwsAsync(fetchText(`https://127.0.0.1:${port}/`, other.caCertPem));
});

test('kubectl (Go crypto/tls) accepts the certificates and the written kubeconfig', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'kapi-kubectl-'));
  const pki = await ensurePki(join(dir, 'pki'), { hosts: ['127.0.0.1'] });
  const { server, port } = await startServer(pki);
  t.teardown(() => server.close());
  const kubectl = async (caCertPem: string) => {
    const kubeconfig = join(dir, 'kubeconfig');
    await writeKubeconfig(kubeconfig, { server: clientUrl('127.0.0.1', port), caCertPem, token, clusterName: 'kapi', userName: 'kapi-admin', contextName: 'kapi' });
    const args = ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), '--request-timeout', '20s', 'get', '--raw', '/x'];
    return (await promisify(execFile)('kubectl', args, { timeout: 60_000 })).stdout;
  };
  t.is((await kubectl(pki.caCertPem)).trim(), 'ok');
  // The same call trusting another CA fails: kubectl really verified the chain.
  const other = await ensurePki(join(dir, 'other-pki'), { hosts: [] });
  await t.throwsAsync(kubectl(other.caCertPem), { message: /certificate signed by unknown authority/ });
});
