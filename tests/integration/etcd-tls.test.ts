/** kapi on etcd over TLS with client certificates (`--etcd-cafile/--etcd-certfile/--etcd-keyfile`). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { EtcdKV } from '../../plugins/storage/etcd/etcd-kv.js';
import { startEtcd, type EtcdCluster } from '../helpers/etcd-process.js';
import { createEtcdTls, type EtcdTlsFiles } from '../helpers/etcd-tls.js';
import { createNamespace, startTestServer } from '../helpers/test-server.js';

let dir: string;
let tls: EtcdTlsFiles;
let etcd: EtcdCluster;

test.serial.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kapi-etcd-tls-'));
  tls = await createEtcdTls(dir);
  etcd = await startEtcd({ tls: { caFile: tls.caFile, certFile: tls.serverCertFile, keyFile: tls.serverKeyFile } });
});

test.after.always(async () => {
  await etcd?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a server with the CA and a client certificate stores in etcd over TLS', async (t) => {
  t.true(etcd.endpoints[0]!.startsWith('https://'));
  const server = await startTestServer({
    storage: 'etcd',
    etcd: { endpoints: etcd.endpoints, tls: { caFile: tls.caFile, certFile: tls.clientCertFile, keyFile: tls.clientKeyFile } },
  });
  t.teardown(() => server.close());
  const ns = await createNamespace(server, 'tls');
  const got = await server.request('GET', `/api/v1/namespaces/${ns}`);
  t.is(got.status, 200);
  t.is((await server.request('GET', '/readyz/etcd')).text, 'ok');
});

test('without a client certificate, or with one of another CA, etcd refuses: the readiness check fails', async (t) => {
  for (const [what, files] of [
    ['no client certificate', { caFile: tls.caFile }],
    ['a client certificate of another CA', { caFile: tls.caFile, certFile: tls.strangerCertFile, keyFile: tls.strangerKeyFile }],
  ] as const) {
    const kv = new EtcdKV({ endpoints: etcd.endpoints, tls: files, callTimeoutMs: 1000 });
    const err = await t.throwsAsync(kv.healthCheck(), undefined, what);
    t.regex(err?.message ?? '', /etcd cluster is unavailable|Timeout/, what);
    await kv.close();
  }
});

test("etcd's certificate must be signed by the given CA", async (t) => {
  const kv = new EtcdKV({
    endpoints: etcd.endpoints,
    tls: { caFile: tls.strangerCertFile, certFile: tls.clientCertFile, keyFile: tls.clientKeyFile },
    callTimeoutMs: 1000,
  });
  t.teardown(() => kv.close());
  await t.throwsAsync(kv.healthCheck());
});
