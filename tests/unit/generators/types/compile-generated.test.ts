// What `kapi gen types` writes compiles under strict in a user's project importing 'kapi', and its types hold what
// the schema allows and refuse what it does not (each @ts-expect-error below must meet an error, or the compile fails).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { generateTypes } from '../../../../generators/types/index.js';
import { compileProject, typesProject } from '../../../helpers/generated-types-project.js';
import { gizmosCrdYaml } from '../../../helpers/gizmos-crd.js';
import { removeDir, repoPath } from '../../../helpers/kapi-process.js';

const usage = `import { ApiClient } from 'kapi';
import { gizmoClient, gizmoInformer, type Gizmo, type GizmoSpec } from './generated/gizmo.v1.js';
import { widgetClient, type Widget } from './generated/widget.v1.js';

const spec: GizmoSpec = {
  size: 'small',
  level: 2,
  port: 'http',
  note: null,
  labels: { a: 'b' },
  limits: { cpu: { max: 1.5 } },
  ports: [{ name: 'web', protocol: 'TCP' }],
  matrix: [[1, 2], [3]],
  template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { any: 'thing' } },
  extra: { known: true, unknown: [1] },
  anything: 42,
  'dash-name': 'x',
  empty: {},
};
export const gizmo: Gizmo = { apiVersion: 'kinds.example.com/v1', kind: 'Gizmo', metadata: { name: 'g' }, spec: { ...spec, port: 80 } };

// @ts-expect-error: not one of the enum's values
export const badSize: GizmoSpec = { ...spec, size: 'medium' };
// @ts-expect-error: size is required
export const noSize: GizmoSpec = { level: 1 };
// @ts-expect-error: an integer enum
export const badLevel: GizmoSpec = { ...spec, level: 4 };
// @ts-expect-error: int-or-string is no boolean
export const badPort: GizmoSpec = { ...spec, port: true };
// @ts-expect-error: an embedded resource has a kind
export const noKind: GizmoSpec = { ...spec, template: { apiVersion: 'v1' } };
// @ts-expect-error: closed objects take no unknown fields
export const unknownPort: GizmoSpec = { ...spec, ports: [{ name: 'a', extra: 1 }] };
// @ts-expect-error: apiVersion is the version's
export const otherVersion: Gizmo = { ...gizmo, apiVersion: 'kinds.example.com/v1beta1' };

export async function use(api: ApiClient): Promise<void> {
  const gizmos = gizmoClient(api);
  const list = await gizmos.list({ labelSelector: 'a=b' });
  const sizes: ('small' | 'large')[] = list.items.map((g) => g.spec.size);
  await gizmos.apply({ ...gizmo, spec }, { fieldManager: 'me', force: true });
  await gizmos.patchStatus('g', { status: { phase: 'Ready' } });
  for await (const event of gizmos.watch({ resourceVersion: list.metadata.resourceVersion })) sizes.push(event.object.spec.size);
  const widgets = widgetClient(api, 'default');
  const w: Widget | undefined = (await widgets.get('w1')).spec?.replicas === 1 ? await widgets.getStatus('w1') : undefined;
  const informer = gizmoInformer(api);
  informer.on({ update: (old, now) => void [old.spec.size, now.spec.size, w] });
  // @ts-expect-error: a cluster-scoped kind's client takes no namespace
  gizmoClient(api, 'default');
}
`;

test('the generated types and clients compile under strict against the package, and type what the schema allows', (t) => {
  const generated = generateTypes([
    { file: 'gizmos.yaml', text: gizmosCrdYaml },
    { file: 'widgets-crd.yaml', text: readFileSync(repoPath('examples/crd-only/widgets-crd.yaml'), 'utf8') },
  ]);
  const files = Object.fromEntries(generated.map((f) => [`generated/${f.path}`, f.text]));
  const dir = typesProject({ ...files, 'usage.ts': usage });
  t.teardown(() => removeDir(dir));
  t.deepEqual(compileProject(dir, ['usage.ts', ...Object.keys(files)]), []);
});

test("the README's typed client example compiles against the widgets CRD's generated file", (t) => {
  const blocks = [...readFileSync(repoPath('README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  const example = blocks.filter((b) => b.includes('widgetInformer'));
  t.is(example.length, 1);
  const [widgets] = generateTypes([{ file: 'widgets-crd.yaml', text: readFileSync(repoPath('examples/crd-only/widgets-crd.yaml'), 'utf8') }]);
  const dir = typesProject({ [`generated/${widgets!.path}`]: widgets!.text, 'example.ts': example[0]! });
  t.teardown(() => removeDir(dir));
  t.deepEqual(compileProject(dir, ['example.ts']), []);
});
