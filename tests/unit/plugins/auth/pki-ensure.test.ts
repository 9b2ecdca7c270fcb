import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureAdminToken, ensurePki } from '../../../../plugins/auth/index.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'kapi-pki-'));

test('creates the CA and serving certificate once and reuses them', async (t) => {
  const dir = join(await tempDir(), 'pki');
  const first = await ensurePki(dir, { hosts: ['127.0.0.1'] });
  const mtimes = await Promise.all(['ca.crt', 'ca.key', 'apiserver.crt', 'apiserver.key'].map(async (f) => (await stat(join(dir, f))).mtimeMs));
  const second = await ensurePki(dir, { hosts: ['127.0.0.1'] });
  t.deepEqual(second, first);
  t.deepEqual(await Promise.all(['ca.crt', 'ca.key', 'apiserver.crt', 'apiserver.key'].map(async (f) => (await stat(join(dir, f))).mtimeMs)), mtimes);
  t.is((await stat(join(dir, 'ca.key'))).mode & 0o777, 0o600);
  t.is((await stat(join(dir, 'apiserver.key'))).mode & 0o777, 0o600);
  t.true(first.keyPem.startsWith('-----BEGIN PRIVATE KEY-----\n'));
  t.true(first.certPem.startsWith('-----BEGIN CERTIFICATE-----\n'));
});

test('the serving certificate is signed by the CA and covers the local and in-cluster names', async (t) => {
  const pki = await ensurePki(join(await tempDir(), 'pki'), { hosts: ['10.1.2.3', 'api.example.com', '0.0.0.0'] });
  const ca = new X509Certificate(pki.caCertPem);
  const cert = new X509Certificate(pki.certPem);
  t.true(ca.ca);
  t.false(cert.ca);
  t.true(ca.verify(ca.publicKey));
  t.true(cert.verify(ca.publicKey));
  t.true(cert.checkIssued(ca));
  for (const host of ['localhost', 'kubernetes', 'kubernetes.default.svc', 'api.example.com']) t.is(cert.checkHost(host), host);
  for (const ip of ['127.0.0.1', '::1', '10.1.2.3']) t.is(cert.checkIP(ip), ip);
  t.is(cert.checkIP('0.0.0.0'), undefined);
  t.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
  t.regex(cert.serialNumber, /^[0-7][0-9A-F]{31}$/);
  const days = (Date.parse(cert.validTo) - Date.now()) / 86_400_000;
  t.true(days > 364 && days <= 365);
});

test('a host the serving certificate does not cover gets a new one from the same CA', async (t) => {
  const dir = join(await tempDir(), 'pki');
  const first = await ensurePki(dir, { hosts: ['127.0.0.1'] });
  const second = await ensurePki(dir, { hosts: ['192.168.7.7'] });
  t.is(second.caCertPem, first.caCertPem);
  t.not(second.certPem, first.certPem);
  const cert = new X509Certificate(second.certPem);
  t.is(cert.checkIP('192.168.7.7'), '192.168.7.7');
  t.true(cert.verify(new X509Certificate(first.caCertPem).publicKey));
});

test('the admin token is 32 random bytes in hex, private, and reused', async (t) => {
  const dir = await tempDir();
  const token = await ensureAdminToken(dir);
  t.regex(token, /^[0-9a-f]{64}$/);
  t.is((await stat(join(dir, 'admin-token'))).mode & 0o777, 0o600);
  t.is(await ensureAdminToken(dir), token);
  t.not(await ensureAdminToken(await tempDir()), token);
});
