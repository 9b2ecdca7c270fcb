// What the real kubectl does with kapi's OpenAPI served as gnostic protobuf: validating `kind: List` files client-side
// (apply, create, edit of several objects) and `explain --output=plaintext-openapiv2`.
import test from 'ava';
import { chmodSync } from 'node:fs';
import { describe, tempFile, useKapi, type KubectlResult } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

async function ok(args: string[], stdin?: string): Promise<KubectlResult> {
  const res = await kapi.kubectl(args, { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res;
}

function widgetYaml(name: string, color: string): string {
  return `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n  color: ${color}\n  replicas: 1\n`;
}

/** Namespace `ns` with widgets w1 (red) and w2 (blue). */
async function namespaceWithWidgets(ns: string): Promise<void> {
  await ok(['apply', '-f', '-'], `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`);
  await ok(['-n', ns, 'apply', '-f', '-'], `${widgetYaml('w1', 'red')}---\n${widgetYaml('w2', 'blue')}`);
}

/** `kubectl get widgets -o yaml` written to a file: a `kind: List` with every widget of the namespace. */
async function savedList(ns: string): Promise<string> {
  const res = await ok(['-n', ns, 'get', 'widgets', '-o', 'yaml']);
  if (!res.stdout.startsWith('apiVersion: v1\nitems:\n')) throw new Error(`not a List:\n${res.stdout}`);
  return tempFile('widgets.yaml', res.stdout);
}

async function colors(ns: string): Promise<string> {
  return (await ok(['-n', ns, 'get', 'widgets', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.color} {end}'])).stdout;
}

test('apply -f of a List saved with get -o yaml recreates the deleted widgets', async (t) => {
  const ns = 'list-apply';
  await namespaceWithWidgets(ns);
  const file = await savedList(ns);
  await ok(['-n', ns, 'delete', 'widgets', '--all']);

  const res = await kapi.kubectl(['apply', '-f', file]);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/w1 created\nwidget.example.com/w2 created\n', describe(res));
  t.is(await colors(ns), 'w1=red w2=blue ');
});

test('create -f of a List saved with get -o yaml recreates the deleted widgets', async (t) => {
  const ns = 'list-create';
  await namespaceWithWidgets(ns);
  const file = await savedList(ns);
  await ok(['-n', ns, 'delete', 'widgets', '--all']);

  const res = await kapi.kubectl(['create', '-f', file]);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/w1 created\nwidget.example.com/w2 created\n', describe(res));
  t.is(await colors(ns), 'w1=red w2=blue ');
});

test('apply --validate=strict of a List with an unknown field is refused by client-side validation', async (t) => {
  const ns = 'list-strict';
  await ok(['apply', '-f', '-'], `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`);
  const item = (name: string, spec: string) => `- apiVersion: example.com/v1\n  kind: Widget\n  metadata: {name: ${name}, namespace: ${ns}}\n  spec: ${spec}\n`;
  const file = tempFile('strict-list.yaml', `apiVersion: v1\nkind: List\nitems:\n${item('good', '{color: red}')}${item('bad', '{color: red, bogus: 1}')}`);

  const res = await kapi.kubectl(['apply', '--validate=strict', '-f', file]);
  t.is(res.code, 1, describe(res));
  t.is(
    res.stderr,
    `error: error validating "${file}": error validating data: ValidationError(Widget.spec): unknown field "bogus" in com.example.v1.Widget.spec; if you choose to ignore these errors, turn validation off with --validate=false\n`,
    describe(res),
  );
  t.is(await colors(ns), '', 'nothing was applied');
});

test('edit of two widgets stores both changes and prints both as edited', async (t) => {
  const ns = 'edit-two';
  await namespaceWithWidgets(ns);
  const editor = tempFile('editor.sh', '#!/bin/sh\nsed -i -e "s/color: red/color: green/" -e "s/color: blue/color: yellow/" "$1"\n');
  chmodSync(editor, 0o755);

  const res = await kapi.kubectl(['-n', ns, 'edit', 'widgets', 'w1', 'w2'], { env: { EDITOR: editor, KUBE_EDITOR: editor } });
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'widget.example.com/w1 edited\nwidget.example.com/w2 edited\n', describe(res));
  t.is(await colors(ns), 'w1=green w2=yellow ');
});

test('explain --output=plaintext-openapiv2 prints the fields of a widget and of its spec', async (t) => {
  const res = await kapi.kubectl(['explain', 'widgets', '--output=plaintext-openapiv2']);
  t.is(res.code, 0, describe(res));
  t.true(res.stdout.startsWith('KIND:     Widget\nVERSION:  example.com/v1\n'), describe(res));
  const fields = [...res.stdout.matchAll(/^ {3}(\w+)\t<(\w+)>/gm)].map((m) => `${m[1]} ${m[2]}`);
  t.deepEqual(fields, ['apiVersion string', 'kind string', 'metadata Object', 'spec Object', 'status Object'], describe(res));

  const spec = await kapi.kubectl(['explain', 'widgets.spec', '--output=plaintext-openapiv2']);
  t.is(spec.code, 0, describe(spec));
  t.regex(spec.stdout, /^RESOURCE: spec <Object>$/m, describe(spec));
  t.deepEqual([...spec.stdout.matchAll(/^ {3}(\w+)\t<(\w+)>/gm)].map((m) => `${m[1]} ${m[2]}`), ['color string', 'replicas integer'], describe(spec));
});
