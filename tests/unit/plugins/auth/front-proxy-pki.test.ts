import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureFrontProxyPki, ensurePki, readProxyClientCertificate, ProxyClientCertificateError } from '../../../../plugins/auth/index.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'kapi-front-proxy-pki-'));

test('a front-proxy CA of its own and a client certificate for front-proxy-client it signed, reused at the next start', async (t) => {
  const dir = join(await tempDir(), 'pki');
  const cluster = await ensurePki(dir, { hosts: [] });
  const first = await ensureFrontProxyPki(dir);
  const ca = new X509Certificate(first.caCertPem);
  const cert = new X509Certificate(first.certPem);
  t.true(ca.ca);
  t.is(ca.subject, 'CN=front-proxy-ca');
  t.true(cert.checkIssued(ca) && cert.verify(ca.publicKey));
  t.false(cert.verify(new X509Certificate(cluster.caCertPem).publicKey));
  t.is(cert.subject, 'CN=front-proxy-client');
  t.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  t.is((await stat(join(dir, 'front-proxy-ca.key'))).mode & 0o777, 0o600);
  t.is((await stat(join(dir, 'front-proxy-client.key'))).mode & 0o777, 0o600);
  t.deepEqual(await ensureFrontProxyPki(dir), first);
});

test('given certificate files are read when the key is the certificate\'s, refused otherwise as Go refuses the pair', async (t) => {
  const a = await ensureFrontProxyPki(join(await tempDir(), 'pki'));
  const b = await ensureFrontProxyPki(join(await tempDir(), 'pki'));
  const dir = await tempDir();
  const file = async (name: string, text: string) => {
    await writeFile(join(dir, name), text);
    return join(dir, name);
  };
  const cert = await file('a.crt', a.certPem);
  t.deepEqual(await readProxyClientCertificate(cert, await file('a.key', a.keyPem)), { certPem: a.certPem, keyPem: a.keyPem });
  const mismatch = await t.throwsAsync(readProxyClientCertificate(cert, await file('b.key', b.keyPem)), { instanceOf: ProxyClientCertificateError });
  t.is(mismatch?.message, 'tls: private key does not match public key');
  await t.throwsAsync(readProxyClientCertificate(await file('junk.crt', 'junk'), join(dir, 'a.key')), { instanceOf: ProxyClientCertificateError, message: /failed to find any PEM data in certificate input/ });
  await t.throwsAsync(readProxyClientCertificate(join(dir, 'missing.crt'), join(dir, 'a.key')), { instanceOf: ProxyClientCertificateError, message: /^failed to load / });
});
