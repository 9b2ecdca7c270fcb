// The admission-plugin example: its WidgetPolicy labels new widgets with their color and refuses color "forbidden".
import test from 'ava';
import { startExample } from '../helpers/example-process.js';

test('examples/admission-plugin labels widgets on create and forbids a color, over HTTP', async (t) => {
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
  t.is(refused.status, 403);
  t.like(await refused.json(), {
    kind: 'Status',
    reason: 'Forbidden',
    message: 'widgets.example.com "w2" is forbidden: spec.color "forbidden" is not allowed',
  });
  t.is((await fetch(`${widgets}/w2`)).status, 404);
});
