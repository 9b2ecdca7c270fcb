// The admission-plugin example: its ColorLabel plugin labels new widgets with their color, AllowedColors refuses the
// color "forbidden" with a field error.
import test from 'ava';
import { describe, removeDir, runKubectl, tempDir } from '../helpers/kapi-process.js';
import { startExample } from '../helpers/example-process.js';

test('examples/admission-plugin labels widgets on create and refuses a color with a field error', async (t) => {
  const home = tempDir('kapi-example-home-');
  t.teardown(() => removeDir(home));
  const url = await startExample(t, 'admission-plugin');
  const widgets = `${url}/apis/example.com/v1/namespaces/default/widgets`;
  const post = (name: string, color: string) =>
    fetch(widgets, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { color, replicas: 1 } }),
    });

  const ok = await post('w1', 'blue');
  t.is(ok.status, 201);
  t.deepEqual(((await ok.json()) as any).metadata.labels, { 'example.com/color': 'blue' });
  const selected = (await (await fetch(`${widgets}?labelSelector=example.com/color%3Dblue`)).json()) as any;
  t.deepEqual(selected.items.map((i: any) => i.metadata.name), ['w1']);

  const refused = await post('w2', 'forbidden');
  t.is(refused.status, 422);
  t.like(await refused.json(), {
    kind: 'Status',
    reason: 'Invalid',
    message: 'Widget.example.com "w2" is invalid: spec.color: Forbidden: this color is not allowed',
    details: { name: 'w2', group: 'example.com', kind: 'Widget', causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: this color is not allowed', field: 'spec.color' }] },
  });
  t.is((await fetch(`${widgets}/w2`)).status, 404);

  const manifest = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w3\nspec:\n  color: forbidden\n';
  const apply = await runKubectl(['--server', url, '-n', 'default', 'apply', '-f', '-'], { stdin: manifest, env: { HOME: home } });
  t.is(apply.code, 1, describe(apply));
  t.is(apply.stderr, 'The Widget "w3" is invalid: spec.color: Forbidden: this color is not allowed\n');
});
