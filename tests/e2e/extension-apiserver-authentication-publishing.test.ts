// kapi as a front server publishes kube-system/extension-apiserver-authentication as kube-apiserver does: restarted
// with other flags it adds to what is there (kube's combined trust for servers sharing the ConfigMap), it puts back
// what is deleted, and the Role extension servers read it with is bootstrapped.
import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { createCa } from '../../plugins/auth/certificates.js';
import { describe, eventually, removeDir, startKapi, tempDir, tempFile, type KapiProcess } from '../helpers/kapi-process.js';

const caOne = await createCa('front-proxy-ca-one');
const caTwo = await createCa('front-proxy-ca-two');

async function published(kapi: KapiProcess): Promise<Record<string, string> | undefined> {
  const res = await kapi.kubectl(['get', 'configmap', '-n', 'kube-system', 'extension-apiserver-authentication', '-o', 'json']);
  return res.code === 0 ? JSON.parse(res.stdout).data : undefined;
}

function fingerprints(pem: string): string[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []).map((c) => new X509Certificate(c).fingerprint256);
}

test('restarted with other --requestheader-* flags, kapi adds them to the ConfigMap; a deleted ConfigMap comes back', async (t) => {
  const dataDir = tempDir('kapi-e2e-publishing-');
  const flags = (ca: string, names: string, usernameHeaders?: string) => [
    '--requestheader-client-ca-file',
    tempFile('front-proxy-ca.crt', ca),
    '--requestheader-allowed-names',
    names,
    ...(usernameHeaders ? ['--requestheader-username-headers', usernameHeaders] : []),
  ];
  try {
    const first = await startKapi({ dataDir, args: flags(caOne.certPem, 'front-proxy-client') });
    const before = await published(first);
    await first.stop();
    t.deepEqual(fingerprints(before!['requestheader-client-ca-file']!), fingerprints(caOne.certPem));
    t.is(before!['requestheader-allowed-names'], '["front-proxy-client"]');

    const second = await startKapi({ dataDir, args: flags(caTwo.certPem, 'aggregator', 'X-User') });
    try {
      const after = await published(second);
      t.deepEqual(fingerprints(after!['requestheader-client-ca-file']!), [...fingerprints(caOne.certPem), ...fingerprints(caTwo.certPem)]);
      t.is(after!['requestheader-allowed-names'], '["front-proxy-client","aggregator"]');
      t.is(after!['requestheader-username-headers'], '["X-Remote-User","X-User"]');
      t.is(after!['client-ca-file'], before!['client-ca-file']);

      const deleted = await second.kubectl(['delete', 'configmap', '-n', 'kube-system', 'extension-apiserver-authentication']);
      t.is(deleted.code, 0, describe(deleted));
      const back = await eventually(() => published(second), (data) => data !== undefined);
      t.deepEqual(back, { ...after, 'requestheader-allowed-names': '["aggregator"]', 'requestheader-username-headers': '["X-User"]', 'requestheader-client-ca-file': caPemAsGo(caTwo.certPem) });
    } finally {
      await second.stop();
    }
  } finally {
    removeDir(dataDir);
  }
});

test('the Role extension servers read the ConfigMap with is kube\'s bootstrap role', async (t) => {
  const kapi = await startKapi({ args: ['--storage', 'memory'] });
  try {
    const res = await kapi.kubectl(['get', 'role', '-n', 'kube-system', 'extension-apiserver-authentication-reader', '-o', 'json']);
    t.is(res.code, 0, describe(res));
    const role = JSON.parse(res.stdout);
    t.deepEqual(role.rules, [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'], verbs: ['get', 'list', 'watch'] }]);
    t.deepEqual(role.metadata.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults' });
    t.deepEqual(role.metadata.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
  } finally {
    await kapi.stop();
  }
});

/** A PEM certificate as Go's pem.Encode writes it (64 characters a line, a final newline). */
function caPemAsGo(pem: string): string {
  const der = new X509Certificate(pem).raw.toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}
