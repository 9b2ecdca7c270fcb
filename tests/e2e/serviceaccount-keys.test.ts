// The ServiceAccount signing key across `kapi serve` restarts: kept in the data directory, or given by
// --service-account-signing-key-file and rotated with --service-account-key-file, as kube-apiserver takes them.
import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, removeDir, startKapi, tempDir, tempFile, type KapiProcess } from '../helpers/kapi-process.js';

async function tokenFor(kapi: KapiProcess, account: string): Promise<string> {
  const created = await kapi.kubectl(['create', 'serviceaccount', account]);
  if (created.code !== 0) throw new Error(describe(created));
  const res = await kapi.kubectl(['create', 'token', account]);
  if (res.code !== 0) throw new Error(describe(res));
  return res.stdout.trim();
}

/** Whether kubectl with the token (and the kubeconfig's CA and server, whose admin token it overrides) gets /apis. */
async function authenticates(kapi: KapiProcess, token: string): Promise<boolean> {
  return (await kapi.kubectl(['--token', token, 'get', '--raw', '/apis'])).code === 0;
}

test.serial('a restart keeps the generated key (0600 in the data directory): earlier tokens still authenticate', async (t) => {
  const dataDir = tempDir('kapi-e2e-sa-');
  try {
    const first = await startKapi({ dataDir });
    const token = await tokenFor(first, 'survivor');
    t.true(await authenticates(first, token));
    await first.stop();
    const keyPath = join(dataDir, 'pki', 'sa.key');
    t.is(statSync(keyPath).mode & 0o777, 0o600);
    const key = readFileSync(keyPath, 'utf8');
    const second = await startKapi({ dataDir });
    try {
      t.is(readFileSync(keyPath, 'utf8'), key);
      t.true(await authenticates(second, token), second.output());
    } finally {
      await second.stop();
    }
  } finally {
    removeDir(dataDir);
  }
});

test.serial('rotation: a new signing key, the old one kept for verification with --service-account-key-file', async (t) => {
  const pem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const oldKey = tempFile('old.key', pem());
  const newKey = tempFile('new.key', pem());
  const dataDir = tempDir('kapi-e2e-sa-');
  try {
    const first = await startKapi({ dataDir, args: ['--service-account-signing-key-file', oldKey] });
    const token = await tokenFor(first, 'rotated');
    await first.stop();
    const without = await startKapi({ dataDir, args: ['--service-account-signing-key-file', newKey] });
    try {
      t.false(await authenticates(without, token), 'a token of a key no longer trusted is refused');
    } finally {
      await without.stop();
    }
    const withOld = await startKapi({ dataDir, args: ['--service-account-signing-key-file', newKey, '--service-account-key-file', oldKey] });
    try {
      t.true(await authenticates(withOld, token), withOld.output());
      const jwks = await withOld.kubectl(['get', '--raw', '/openid/v1/jwks']);
      t.is(JSON.parse(jwks.stdout).keys.length, 2, describe(jwks));
    } finally {
      await withOld.stop();
    }
  } finally {
    removeDir(dataDir);
  }
});

test.serial('a signing key file that is no key stops kapi serve with the reason', async (t) => {
  const notAKey = tempFile('sa.key', 'hello\n');
  const err = await startKapi({ args: ['--service-account-signing-key-file', notAKey] }).then(
    async (k) => {
      await k.stop();
      return undefined;
    },
    (e: Error) => e,
  );
  t.regex(err?.message ?? '', /failed to parse service-account issuer key file ".*sa\.key": not an RSA or ECDSA private key in PEM/);
});
