import test from 'ava';
import { resolve } from 'node:path';
import { parseServeFlags } from '../../cli/serve-flags.js';
import { UsageError } from '../../cli/usage-error.js';

test('defaults', (t) => {
  t.deepEqual(parseServeFlags([]), {
    dataDir: resolve('.kapi'),
    port: 6443,
    bindAddress: '127.0.0.1',
    storage: 'sqlite',
    crdPaths: [],
  });
});

test('all flags', (t) => {
  const args = ['--data-dir', '/tmp/k', '--port', '0', '--bind-address', '0.0.0.0', '--storage', 'memory', '--crds', 'a.yaml', '--crds=/crds'];
  t.deepEqual(parseServeFlags(args), {
    dataDir: '/tmp/k',
    port: 0,
    bindAddress: '0.0.0.0',
    storage: 'memory',
    crdPaths: [resolve('a.yaml'), '/crds'],
  });
});

test('--admission-plugins names the plugins to run, in order; empty runs none', (t) => {
  t.deepEqual((parseServeFlags(['--admission-plugins', 'CreatedBy, NamespaceLifecycle']) as { admissionPlugins?: string[] }).admissionPlugins, [
    'CreatedBy',
    'NamespaceLifecycle',
  ]);
  t.deepEqual((parseServeFlags(['--admission-plugins=']) as { admissionPlugins?: string[] }).admissionPlugins, []);
});

test('help', (t) => {
  t.is(parseServeFlags(['--help']), 'help');
  t.is(parseServeFlags(['-h']), 'help');
});

test('bad command lines are usage errors', (t) => {
  for (const args of [['--storage', 'etcd'], ['--port', 'x'], ['--port', '70000'], ['--port', '-1'], ['--nope'], ['extra'], ['--port']]) {
    t.throws(() => parseServeFlags(args), { instanceOf: UsageError }, args.join(' '));
  }
  t.throws(() => parseServeFlags(['--storage', 'etcd']), { message: 'invalid --storage "etcd": must be sqlite or memory' });
});
