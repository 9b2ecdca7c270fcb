// `kapi gen crd` on bad input, run as a process: a clear error with file:line:column on stderr, exit code 1, and
// no file written — not even the CRDs of the inputs that were fine.
import test from 'ava';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runKapiCommand } from '../helpers/kapi-command.js';
import { removeDir, repoRoot, tempDir } from '../helpers/kapi-process.js';

function kind(kindName: string, field: string): string {
  return `// +groupName=example.com\n// +versionName=v1\n\n// +kubebuilder:object:root=true\nexport interface ${kindName} {\n  apiVersion?: string;\n  kind?: string;\n${field}\n}\n`;
}

function inputs(t: import('ava').ExecutionContext, files: Record<string, string>): { dir: string; paths: string[]; shown: (f: string) => string } {
  const dir = tempDir('kapi-gen-crd-bad-');
  t.teardown(() => removeDir(dir));
  const paths = Object.entries(files).map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
  return { dir, paths, shown: (f) => relative(repoRoot, join(dir, f)) };
}

test('a malformed marker in one of two files: the error with its line, exit 1, and neither CRD written', async (t) => {
  const { dir, paths, shown } = inputs(t, {
    'good.ts': kind('Good', '  size?: number;'),
    'bad.ts': kind('Bad', '  // +kubebuilder:validation:Maximum=lots\n  size?: number;'),
  });
  const out = join(dir, 'out');
  const res = await runKapiCommand(['gen', 'crd', ...paths, '-o', out]);
  t.is(res.code, 1);
  t.is(res.stderr, `kapi: ${shown('bad.ts')}:8:3: malformed marker +kubebuilder:validation:Maximum=lots: "lots" is not a number\n`);
  t.is(res.stdout, '');
  t.false(existsSync(out) && readdirSync(out).length > 0, 'nothing is written');
});

test('TypeScript that does not compile: tsc\'s diagnostics, exit 1', async (t) => {
  const { paths, shown } = inputs(t, { 'broken.ts': kind('Broken', '  size?: number = 3;') });
  const res = await runKapiCommand(['gen', 'crd', ...paths]);
  t.is(res.code, 1);
  t.is(res.stderr, `kapi: ${shown('broken.ts')}:8:19: error TS1246: An interface property cannot have an initializer.\n`);
  t.is(res.stdout, '');
});

test('a recursive type: exit 1 with where it refers to itself', async (t) => {
  const { paths, shown } = inputs(t, { 'tree.ts': `${kind('Forest', '  tree?: Tree;')}interface Tree {\n  kids?: Tree[];\n}\n` });
  const res = await runKapiCommand(['gen', 'crd', ...paths]);
  t.is(res.code, 1);
  t.is(res.stderr, `kapi: ${shown('tree.ts')}:11:10: recursive type Tree (Tree → Tree): a CRD schema cannot contain itself\n`);
});

test('no input file is a usage error (exit 2)', async (t) => {
  const res = await runKapiCommand(['gen', 'crd']);
  t.is(res.code, 2);
  t.is(res.stderr, 'kapi: missing the TypeScript files (see kapi gen --help)\n');
});
