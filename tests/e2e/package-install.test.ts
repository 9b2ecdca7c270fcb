// kapi as a dependency: the packed tarball holds the built package (not the tests), installs into a fresh ESM project,
// its types compile there with skipLibCheck off, and a TLS + token server built from the entry point alone serves
// kubectl.
import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { installOffline, packKapi } from '../helpers/consumer-project.js';
import { describe, removeDir, repoPath, runKubectl, table, tempDir } from '../helpers/kapi-process.js';

const run = promisify(execFile);

const root = tempDir('kapi-package-');
const consumer = join(root, 'consumer');
let packed: string[] = [];

test.serial.before(async (t) => {
  t.timeout(300_000);
  const { tarball, files } = await packKapi(root);
  packed = files;
  await mkdir(consumer);
  await installOffline(consumer, tarball);
});
test.after.always(() => removeDir(root));

// A CRD-serving server with a typed admission plugin and a resource from its own storage, as the README shows them.
const server = `import { join } from 'node:path';
import {
  adminUser, alwaysAllow, clientUrl, createApiServer, defaultModules, defineAdmissionPlugin, ensureAdminToken, ensurePki, errors,
  resourceModule, staticTokenAuth, Tokens, writeKubeconfig, type KubeObject, type Module, type RestStorage,
} from 'kapi';

interface Widget extends KubeObject {
  spec?: { color?: string };
}
const colorLabel = defineAdmissionPlugin<Widget>({
  name: 'ColorLabel',
  operations: ['CREATE'],
  rules: [{ apiGroups: ['example.com'], resources: ['widgets'] }],
  sideEffects: 'None',
  admit({ object }) {
    object.metadata = { ...object.metadata, labels: { ...object.metadata?.labels, color: object.spec?.color ?? 'none' } };
  },
});
const plugins: Module = (c) => c.register(Tokens.AdmissionPlugin, { useValue: colorLabel });

const started = new Date().toISOString().replace(/\\.\\d+Z$/, 'Z');
const uptime = (): KubeObject => ({ metadata: { name: 'server', creationTimestamp: started }, seconds: Math.floor(process.uptime()) });
const uptimes: RestStorage = {
  async get(_ctx, name) {
    if (name !== 'server') throw errors.notFound({ group: 'stats.example.com', resource: 'uptimes', name });
    return uptime();
  },
  async list() {
    return { items: [uptime()] };
  },
};

const dir = process.argv[2]!;
const pki = await ensurePki(join(dir, 'pki'), { hosts: ['127.0.0.1'] });
const token = await ensureAdminToken(dir);
const server = createApiServer({
  modules: [
    ...defaultModules({ storage: 'memory', authModules: [staticTokenAuth([{ token, user: adminUser }]), alwaysAllow()] }),
    plugins,
    resourceModule({ group: 'stats.example.com', versions: ['v1'], kind: 'Uptime', plural: 'uptimes', scope: 'Cluster', storage: uptimes }),
  ],
});
const { host, port } = await server.listen({ port: 0, host: '127.0.0.1', tls: { cert: pki.certPem, key: pki.keyPem } });
const url = clientUrl(host, port);
await writeKubeconfig(join(dir, 'kubeconfig'), { server: url, caCertPem: pki.caCertPem, token, clusterName: 'kapi', userName: 'admin', contextName: 'kapi' });
console.log(\`serving on \${url}\`);
`;

const tsconfig = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, types: ['node'], outDir: 'out' },
  files: ['server.ts'],
};

test('the tarball holds the build, bin and built-in schemas, and no tests, benchmarks, examples or sources', (t) => {
  for (const file of ['package.json', 'bin/kapi', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js']) t.true(packed.includes(file), file);
  for (const schema of readdirSync(repoPath('schemas/builtin'))) t.true(packed.includes(`schemas/builtin/${schema}`), schema);
  t.deepEqual(
    packed.filter((f) => /^(dist\/)?(tests|bench|examples)\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
    [],
  );
});

test.serial('a TLS + token server with a CRD, a typed admission plugin and an own-storage resource, written against the installed entry point, compiles with skipLibCheck off and serves kubectl', async (t) => {
  t.timeout(300_000);
  writeFileSync(join(consumer, 'server.ts'), server);
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const tscErrors = await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], { cwd: consumer }).then(
    () => '',
    (err: { stdout: string }) => err.stdout,
  );
  t.is(tscErrors, '');

  const dataDir = join(root, 'data');
  const child = spawn(process.execPath, ['out/server.js', dataDir], { cwd: consumer, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => child.kill('SIGKILL'));
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the server printed no "serving on" line within 30s:\n${output}`)), 30_000);
    child.stdout.on('data', () => output.includes('serving on https://') && resolve());
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  }).finally(() => clearTimeout(timer));

  const home = join(root, 'home');
  const kubectl = (args: string[]) => runKubectl(args, { env: { KUBECONFIG: join(dataDir, 'kubeconfig'), HOME: home } });
  for (const args of [
    ['apply', '-f', repoPath('examples/crd-only/widgets-crd.yaml')],
    ['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.com'],
    ['apply', '-n', 'default', '-f', repoPath('examples/crd-only/widget.yaml')],
  ]) {
    const res = await kubectl(args);
    t.is(res.code, 0, describe(res));
  }
  const get = await kubectl(['get', 'widgets', '-n', 'default']);
  t.is(get.code, 0, describe(get));
  const rows = table(get.stdout);
  t.deepEqual(rows[0], ['NAME', 'COLOR', 'REPLICAS', 'AGE']);
  t.deepEqual(rows[1]?.slice(0, 3), ['w1', 'blue', '3']);
  const labels = await kubectl(['get', 'widget', 'w1', '-n', 'default', '-o', 'jsonpath={.metadata.labels.color}']);
  t.is(labels.stdout, 'blue', describe(labels)); // set by the typed admission plugin
  const uptimes = await kubectl(['get', 'uptimes']);
  t.is(uptimes.code, 0, describe(uptimes));
  t.deepEqual(table(uptimes.stdout).map((r) => r[0]), ['NAME', 'server']);

  const url = /serving on (\S+)/.exec(output)![1]!;
  const wrongToken = await runKubectl(['--server', url, '--insecure-skip-tls-verify', '--token', 'not-the-token', 'get', 'widgets', '-A'], {
    env: { KUBECONFIG: join(home, 'no-kubeconfig'), HOME: home },
  });
  t.regex(wrongToken.stderr, /\(Unauthorized\)/, describe(wrongToken));
});

test.serial("the installed kapi command prints the package's version", async (t) => {
  const { version } = JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { version: string };
  const { stdout } = await run(join(consumer, 'node_modules/.bin/kapi'), ['--version']);
  t.is(stdout, `kapi v${version}\n`);
});

test.serial('the entry point is the only way in: deep imports are refused', async (t) => {
  const deep = run(process.execPath, ['--input-type=module', '-e', "await import('kapi/dist/plugins/auth/index.js')"], { cwd: consumer });
  await t.throwsAsync(deep, { message: /ERR_PACKAGE_PATH_NOT_EXPORTED/ });
});
