// `kapi gen server` as a process: regenerating gives the same project but for its fresh certificates, the serving
// certificate covers the Service's DNS names and the address, and bad input is a usage error that writes nothing.
import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runKapiCommand as kapi } from '../helpers/kapi-command.js';
import { removeDir, tempDir } from '../helpers/kapi-process.js';

const args = ['shop', '--group', 'shop.example.com', '--kind', 'Order', '--kind', 'Box', '--address', '192.0.2.7', '--port', '18443', '--kapi', '^0.1.0'];

function folder(t: import('ava').ExecutionContext): string {
  const dir = tempDir('kapi-gen-server-cli-');
  t.teardown(() => removeDir(dir));
  return dir;
}

/** Every file under `dir`, by relative path. */
function files(dir: string, under = dir): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(under, { withFileTypes: true })) {
    const path = join(under, entry.name);
    if (entry.isDirectory()) for (const [p, text] of files(dir, path)) out.set(p, text);
    else out.set(relative(dir, path), readFileSync(path, 'utf8'));
  }
  return out;
}

test('generating twice gives the same files but the certificates, and the APIService trusts each run\'s own CA', async (t) => {
  const dir = folder(t);
  const projects = [join(dir, 'first'), join(dir, 'second')];
  for (const project of projects) {
    const run = await kapi(['gen', 'server', ...args, '-o', project]);
    t.is(run.code, 0, run.stderr);
  }
  const [first, second] = projects.map((project) => {
    const all = files(project);
    const caBundle = Buffer.from(readFileSync(join(project, 'pki', 'ca.crt'))).toString('base64');
    const apiService = all.get('deploy/30-apiservice.yaml')!;
    t.true(apiService.includes(`  caBundle: ${caBundle}\n`));
    all.set('deploy/30-apiservice.yaml', apiService.replace(caBundle, 'CA'));
    return new Map([...all].filter(([path]) => !path.startsWith('pki/')));
  });
  t.deepEqual([...first!.keys()].sort(), [...second!.keys()].sort());
  for (const [path, text] of first!) t.is(second!.get(path), text, path);
  t.not(readFileSync(join(projects[0]!, 'pki', 'ca.crt'), 'utf8'), readFileSync(join(projects[1]!, 'pki', 'ca.crt'), 'utf8'));
});

test('the serving certificate, signed by pki/ca.crt, covers api.NAME.svc and the address', async (t) => {
  const project = join(folder(t), 'shop');
  const run = await kapi(['gen', 'server', ...args, '-o', project]);
  t.is(run.code, 0, run.stderr);
  const cert = new X509Certificate(readFileSync(join(project, 'pki', 'apiserver.crt')));
  t.true(cert.verify(new X509Certificate(readFileSync(join(project, 'pki', 'ca.crt'))).publicKey));
  t.is(cert.checkHost('api.shop.svc'), 'api.shop.svc');
  t.is(cert.checkIP('192.0.2.7'), '192.0.2.7');
});

const usageErrors: [string, string[], string][] = [
  ['a bad name', ['Shop', '--group', 'shop.example.com'], 'kapi: invalid name "Shop": a lowercase RFC 1123 label'],
  ['a bad group', ['shop', '--group', 'shop'], 'kapi: invalid group "shop": a lowercase RFC 1123 subdomain'],
  ['a bad kind', ['shop', '--group', 'shop.example.com', '--kind', 'order'], 'kapi: invalid kind "order"'],
  ['no group', ['shop'], 'kapi: missing --group (see kapi gen --help)'],
  ['no name', ['--group', 'shop.example.com'], 'kapi: missing the project NAME (see kapi gen --help)'],
  ['an unknown flag', ['shop', '--group', 'shop.example.com', '--kinds', 'Order'], "kapi: Unknown option '--kinds'"],
];

for (const [what, bad, message] of usageErrors) {
  test(`${what}: a usage error (exit 2), and nothing written`, async (t) => {
    const dir = folder(t);
    const run = await kapi(['gen', 'server', ...bad, '--address', '192.0.2.7', '-o', join(dir, 'out')]);
    t.is(run.code, 2);
    t.true(run.stderr.startsWith(message), run.stderr);
    t.deepEqual(readdirSync(dir), []);
  });
}

test('a folder that is not empty is refused (exit 1) and left as it was', async (t) => {
  const dir = folder(t);
  mkdirSync(join(dir, 'shop'));
  writeFileSync(join(dir, 'shop', 'mine.txt'), 'mine');
  const run = await kapi(['gen', 'server', ...args, '-o', join(dir, 'shop')]);
  t.is(run.code, 1);
  t.is(run.stderr, `kapi: ${join(dir, 'shop')} is not empty\n`);
  t.deepEqual(readdirSync(dir), ['shop']);
  t.deepEqual(readdirSync(join(dir, 'shop')), ['mine.txt']);
});

test('an empty folder is filled', async (t) => {
  const dir = folder(t);
  mkdirSync(join(dir, 'shop'));
  const run = await kapi(['gen', 'server', ...args, '-o', join(dir, 'shop')]);
  t.is(run.code, 0, run.stderr);
  t.true(existsSync(join(dir, 'shop', 'package.json')));
  t.deepEqual(readdirSync(dir), ['shop']);
});
