// `kapi serve`'s TLS, probed with `openssl s_client` as a scanner would: the intermediate profile by default (TLS 1.3,
// and on TLS 1.2 only ECDHE with AES-GCM or ChaCha20-Poly1305), and kube-apiserver's --tls-cipher-suites and
// --tls-min-version. kapi's serving key is ECDSA, so the ECDHE-ECDSA suites are the ones a handshake can use.
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { repoRoot, startKapi, type KapiProcess } from '../helpers/kapi-process.js';

interface Handshake {
  ok: boolean;
  /** The negotiated protocol and cipher, e.g. "TLSv1.2 ECDHE-ECDSA-AES128-GCM-SHA256"; "" when refused. */
  negotiated: string;
  output: string;
}

/** A TLS handshake with `openssl s_client ARGS` (the tests need openssl: CI installs it, see .ci/run). */
function handshake(kapi: KapiProcess, args: string[]): Promise<Handshake> {
  const { host } = new URL(kapi.url);
  return new Promise((resolve, reject) => {
    const child = spawn('openssl', ['s_client', '-connect', host, '-servername', 'localhost', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (err) => reject(new Error(`cannot run openssl (${err.message}): install it (apt-get install openssl)`)));
    child.on('close', (code) => {
      const cipher = /^New, \S+, Cipher is (\S+)$/m.exec(output)?.[1];
      const protocol = /^\s+Protocol\s*: (\S+)$/m.exec(output)?.[1];
      const negotiated = cipher && cipher !== '(NONE)' ? `${protocol} ${cipher}` : '';
      resolve({ ok: code === 0 && negotiated !== '', negotiated, output });
    });
    child.stdin.end();
  });
}

async function expectAccepted(t: import('ava').ExecutionContext, kapi: KapiProcess, args: string[], negotiated: string) {
  const h = await handshake(kapi, args);
  t.true(h.ok, `${args.join(' ')} is accepted\n${h.output}`);
  t.is(h.negotiated, negotiated, args.join(' '));
}

async function expectRefused(t: import('ava').ExecutionContext, kapi: KapiProcess, args: string[]) {
  const h = await handshake(kapi, args);
  t.false(h.ok, `${args.join(' ')} is refused, not ${h.negotiated}`);
  // Refused by the server (a handshake_failure or protocol_version alert), not by the client itself.
  t.regex(h.output, /alert (handshake failure|protocol version)/, args.join(' '));
}

let kapi: KapiProcess | undefined;

test.before(async () => {
  kapi = await startKapi();
});

test.after.always(async () => {
  await kapi?.stop();
});

test('by default TLS 1.2 offers ECDHE with AES-GCM or ChaCha20-Poly1305 only; CBC-SHA1, CCM8 and ARIA suites are refused', async (t) => {
  await expectAccepted(t, kapi!, ['-tls1_2', '-cipher', 'ECDHE-ECDSA-AES128-GCM-SHA256'], 'TLSv1.2 ECDHE-ECDSA-AES128-GCM-SHA256');
  await expectAccepted(t, kapi!, ['-tls1_2', '-cipher', 'ECDHE-ECDSA-AES256-GCM-SHA384'], 'TLSv1.2 ECDHE-ECDSA-AES256-GCM-SHA384');
  await expectAccepted(t, kapi!, ['-tls1_2', '-cipher', 'ECDHE-ECDSA-CHACHA20-POLY1305'], 'TLSv1.2 ECDHE-ECDSA-CHACHA20-POLY1305');
  for (const cipher of ['ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA', 'ECDHE-ECDSA-AES128-SHA256', 'ECDHE-ECDSA-AES128-CCM8', 'ECDHE-ECDSA-ARIA128-GCM-SHA256']) {
    await expectRefused(t, kapi!, ['-tls1_2', '-cipher', cipher]);
  }
});

test('TLS 1.3 is served; TLS 1.1 is refused', async (t) => {
  const h = await handshake(kapi!, ['-tls1_3']);
  t.true(h.ok, h.output);
  t.regex(h.negotiated, /^TLSv1\.3 TLS_/);
  // @SECLEVEL=0 so that this client offers TLS 1.1 at all: the refusal must come from kapi.
  await expectRefused(t, kapi!, ['-tls1_1', '-cipher', 'DEFAULT:@SECLEVEL=0']);
});

test('--tls-min-version VersionTLS13 refuses TLS 1.2', async (t) => {
  const only13 = await startKapi({ args: ['--tls-min-version', 'VersionTLS13'] });
  t.teardown(() => only13.stop());
  await expectRefused(t, only13, ['-tls1_2']);
  const h = await handshake(only13, ['-tls1_3']);
  t.true(h.ok, h.output);
});

test('--tls-cipher-suites takes IANA names: only those are offered on TLS 1.2, TLS 1.3 stays', async (t) => {
  const chosen = await startKapi({ args: ['--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA'] });
  t.teardown(() => chosen.stop());
  await expectAccepted(t, chosen, ['-tls1_2', '-cipher', 'ECDHE-ECDSA-AES256-GCM-SHA384'], 'TLSv1.2 ECDHE-ECDSA-AES256-GCM-SHA384');
  await expectAccepted(t, chosen, ['-tls1_2', '-cipher', 'ECDHE-ECDSA-AES128-SHA'], 'TLSv1.2 ECDHE-ECDSA-AES128-SHA');
  await expectRefused(t, chosen, ['-tls1_2', '-cipher', 'ECDHE-ECDSA-AES128-GCM-SHA256']);
  t.true((await handshake(chosen, ['-tls1_3'])).ok, 'TLS 1.3');
});

test('an unknown --tls-cipher-suites name or --tls-min-version is a usage error with kube-apiserver\'s message', (t) => {
  const serve = (args: string[]) =>
    spawnSync(process.execPath, ['bin/kapi', 'serve', '--port', '0', '--data-dir', '/nonexistent/never-created', ...args], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
  const badSuite = serve(['--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_NO_SUCH_SUITE']);
  t.is(badSuite.status, 2, badSuite.stderr);
  t.is(
    badSuite.stderr,
    'kapi: invalid --tls-cipher-suites "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_NO_SUCH_SUITE": Cipher suite TLS_NO_SUCH_SUITE not supported or doesn\'t exist (see kapi serve --help)\n',
  );
  const badVersion = serve(['--tls-min-version', 'TLS12']);
  t.is(badVersion.status, 2, badVersion.stderr);
  t.is(badVersion.stderr, 'kapi: invalid --tls-min-version "TLS12": unknown tls version "TLS12" (see kapi serve --help)\n');
});
