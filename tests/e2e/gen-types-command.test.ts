// `kapi gen types` as a process: it writes one file per served version into -o, and on bad input it names the file
// and the path, exits 1 and writes nothing (not even the files of the good CRDs given with it).
import test from 'ava';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gizmosCrdYaml } from '../helpers/gizmos-crd.js';
import { removeDir, tempDir } from '../helpers/kapi-process.js';
import { runKapiCommand as kapi } from '../helpers/kapi-command.js';

function folder(t: import('ava').ExecutionContext): string {
  const dir = tempDir('kapi-gen-types-cli-');
  t.teardown(() => removeDir(dir));
  writeFileSync(join(dir, 'gizmos.yaml'), gizmosCrdYaml);
  return dir;
}

test('writes a file per served version of each CRD into -o', async (t) => {
  const dir = folder(t);
  const out = join(dir, 'out', 'types');
  const run = await kapi(['gen', 'types', join(dir, 'gizmos.yaml'), 'examples/crd-only/widgets-crd.yaml', '-o', out]);
  t.is(run.code, 0, run.stderr);
  t.deepEqual(readdirSync(out).sort(), ['gizmo.v1.ts', 'gizmo.v1beta1.ts', 'widget.v1.ts']);
});

const badFiles: [string, string, string][] = [
  ['not YAML', 'a: [', 'not YAML: '],
  ['not a CRD', 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n', 'holds no CustomResourceDefinition'],
  [
    'an unsupported schema',
    gizmosCrdYaml.replace('dash-name: { type: string }', 'dash-name: { type: array }'),
    'gizmos.kinds.example.com version v1: spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.dash-name.items: an array needs one items schema',
  ],
];

for (const [what, text, message] of badFiles) {
  test(`bad input (${what}): the file and path named, exit 1, nothing written`, async (t) => {
    const dir = folder(t);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, text);
    const out = join(dir, 'out');
    const run = await kapi(['gen', 'types', join(dir, 'gizmos.yaml'), bad, '-o', out]);
    t.is(run.code, 1);
    t.true(run.stderr.startsWith(`kapi: ${bad}: ${message}`), run.stderr);
    t.false(existsSync(out));
  });
}

test('no CRD file is a usage error (exit 2)', async (t) => {
  const run = await kapi(['gen', 'types', '-o', 'x']);
  t.is(run.code, 2);
  t.is(run.stderr, 'kapi: missing the CRD files (see kapi gen --help)\n');
});
