// `kapi gen crd` run as a process on the example's TypeScript (every marker): kapi accepts the CRD it writes (that it
// is the checked-in one byte for byte is tests/e2e/gen-examples.test.ts's), and with the real kubectl: explain shows the doc comments, each validation marker
// refuses a violating widget with kube's message, defaults apply, printer columns, short names, selectable fields,
// scale and the deprecated version's warning work.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runKapiCommand } from '../helpers/kapi-command.js';
import { describe, removeDir, table, tempDir, useKapi } from '../helpers/kapi-process.js';

const sources = ['widget-types.ts', 'widget-v1beta1-types.ts', 'widget-v1alpha1-types.ts'].map((f) => join('examples/gen-crd', f));

const kapi = useKapi();
let generated = '';

test.serial.before(async () => {
  const dir = tempDir('kapi-gen-crd-');
  try {
    const res = await runKapiCommand(['gen', 'crd', ...sources, '-o', dir]);
    if (res.code !== 0) throw new Error(`kapi gen crd: ${res.stderr}`);
    generated = readFileSync(join(dir, 'gen.example.com_widgets.yaml'), 'utf8');
  } finally {
    removeDir(dir);
  }
  const steps: [string[], string?][] = [
    [['apply', '-f', '-'], generated],
    [['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.gen.example.com']],
    [['create', 'namespace', 'gen']],
  ];
  for (const [args, stdin] of steps) {
    const res = await kapi.kubectl(args, { stdin });
    if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  }
});

/** A v1 widget manifest: the required fields, with `spec` on top. */
function widget(name: string, spec: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'gen.example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'gen' },
    spec: { color: 'blue', owner: 'ann', maker: 'acme', ...spec },
  });
}

test('kubectl explain shows the doc comments as descriptions', async (t) => {
  const kind = await kapi.kubectl(['explain', 'widgets', '--api-version=gen.example.com/v1']);
  t.is(kind.code, 0, describe(kind));
  t.regex(kind.stdout, /A Widget is an example resource of kapi gen crd\./);
  const spec = await kapi.kubectl(['explain', 'widgets.spec', '--api-version=gen.example.com/v1']);
  t.is(spec.code, 0, describe(spec));
  t.regex(spec.stdout, /What the widget should be\./);
  t.regex(spec.stdout, /color\s+<string> -required-\n\s+The widget's color, in lower-case letters\./);
  t.regex(spec.stdout, /shape\s+<string>\n\s+enum: round, square, hexagonal\n\s+The widget's outline\./);
  const port = await kapi.kubectl(['explain', 'widgets.spec.ports.port', '--api-version=gen.example.com/v1']);
  t.is(port.code, 0, describe(port));
  t.regex(port.stdout, /The port number\./);
});

const refusals: [marker: string, spec: Record<string, unknown>, message: string][] = [
  ['MinLength', { color: 'ab' }, 'spec.color: Invalid value: "ab": spec.color in body should be at least 3 chars long'],
  ['MaxLength', { color: 'abcdefghijklm' }, 'spec.color: Too long: may not be more than 12 bytes'],
  ['Pattern', { color: 'Blue' }, `spec.color: Invalid value: "Blue": spec.color in body should match '^[a-z]+$'`],
  ['XValidation messageExpression', { color: 'black' }, 'spec.color: Invalid value: "string": color black is not allowed'],
  ['string-literal union', { shape: 'oval' }, 'spec.shape: Unsupported value: "oval": supported values: "round", "square", "hexagonal"'],
  ['Minimum', { replicas: -1 }, 'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0'],
  ['Maximum', { replicas: 11 }, 'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10'],
  ['ExclusiveMinimum', { weight: 0 }, 'spec.weight: Invalid value: 0: spec.weight in body should be greater than 0'],
  ['ExclusiveMaximum', { weight: 100 }, 'spec.weight: Invalid value: 100: spec.weight in body should be less than 100'],
  ['MultipleOf', { weight: 1.25 }, 'spec.weight: Invalid value: 1.25: spec.weight in body should be a multiple of 0.5'],
  ['Type=integer', { size: 2.5 }, 'spec.size: Invalid value: "number": spec.size in body must be of type integer: "number"'],
  ['MultipleOf on an integer', { size: 3 }, 'spec.size: Invalid value: 3: spec.size in body should be a multiple of 2'],
  ['MinItems', { tags: [] }, 'spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items'],
  ['MaxItems', { tags: ['a', 'b', 'c', 'd'] }, 'spec.tags: Too many: 4: must have at most 3 items'],
  ['listType=set', { tags: ['a', 'a'] }, 'spec.tags[1]: Duplicate value: "a"'],
  ['listType=map with listMapKey', { ports: [{ name: 'http', port: 80 }, { name: 'http', port: 81 }] }, 'spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}'],
  ['Minimum on a nested type', { ports: [{ name: 'http', port: 0 }] }, 'spec.ports[0].port: Invalid value: 0: spec.ports[0].port in body should be greater than or equal to 1'],
  ['Enum', { ports: [{ name: 'http', port: 80, protocol: 'SCTP' }] }, 'spec.ports[0].protocol: Unsupported value: "SCTP": supported values: "TCP", "UDP"'],
  ['MinProperties', { partLabels: {} }, 'spec.partLabels: Invalid value: 0: spec.partLabels in body should have at least 1 properties'],
  ['MaxProperties', { partLabels: { a: '1', b: '2', c: '3' } }, 'spec.partLabels: Too many: 3: must have at most 2 items'],
  ['Format', { builtAt: 'yesterday' }, 'spec.builtAt: Invalid value: "yesterday": spec.builtAt in body must be of type date-time: "yesterday"'],
  ['+required on an optional field', { owner: undefined }, 'spec.owner: Required value'],
  ['validation:Required', { maker: undefined }, 'spec.maker: Required value'],
  ['IntOrString', { servePort: true }, 'spec.servePort: Invalid value: "boolean": spec.servePort in body must be of type integer,string: "boolean"'],
  ['XEmbeddedResource', { template: { apiVersion: 'v1' } }, 'spec.template.kind: Required value: must not be empty'],
  ['XValidation with fieldPath and reason', { replicas: 5, maxReplicas: 3 }, 'spec.replicas: Forbidden: replicas must not exceed maxReplicas'],
];

for (const [marker, spec, message] of refusals) {
  test(`${marker}: a violating widget is refused with kube's message`, async (t) => {
    const name = `bad-${marker.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    const res = await kapi.kubectl(['create', '-f', '-'], { stdin: widget(name, spec) });
    t.is(res.code, 1, describe(res));
    t.true(res.stderr.includes(message), `expected ${JSON.stringify(message)} in: ${res.stderr}`);
  });
}

test('XValidation with optionalOldSelf: the budget may grow, not shrink', async (t) => {
  const create = await kapi.kubectl(['create', '-f', '-'], { stdin: widget('budget', { budget: 10 }) });
  t.is(create.code, 0, describe(create));
  const grow = await kapi.kubectl(['patch', 'widget', 'budget', '-n', 'gen', '--type=merge', '-p', '{"spec":{"budget":20}}']);
  t.is(grow.code, 0, describe(grow));
  const shrink = await kapi.kubectl(['patch', 'widget', 'budget', '-n', 'gen', '--type=merge', '-p', '{"spec":{"budget":5}}']);
  t.is(shrink.code, 1, describe(shrink));
  t.true(shrink.stderr.includes('spec.budget: Invalid value: "integer": budget must not decrease'), shrink.stderr);
});

test('defaults apply, unknown settings are kept, nullable fields take null', async (t) => {
  const stdin = widget('defaults', { ports: [{ name: 'http', port: 80 }], settings: { any: { thing: 1 } }, note: null, paused: null, servePort: 'http' });
  const create = await kapi.kubectl(['create', '-f', '-'], { stdin });
  t.is(create.code, 0, describe(create));
  const get = await kapi.kubectl(['get', 'widget', 'defaults', '-n', 'gen', '-o', 'json']);
  t.is(get.code, 0, describe(get));
  const spec = JSON.parse(get.stdout).spec;
  t.is(spec.replicas, 1);
  t.is(spec.shape, 'round');
  t.deepEqual(spec.selector, { matchLabels: { app: 'widget' } });
  t.deepEqual(spec.ports, [{ name: 'http', port: 80, protocol: 'TCP' }]);
  t.deepEqual(spec.settings, { any: { thing: 1 } });
  t.is(spec.note, null);
  t.is(spec.paused, null);
  t.is(spec.servePort, 'http');
});

test('printer columns print, the wide one with -o wide; short names, selectable fields and scale work', async (t) => {
  const create = await kapi.kubectl(['create', '-f', '-'], { stdin: widget('columns', { color: 'green', replicas: 2, shape: 'square' }) });
  t.is(create.code, 0, describe(create));
  const get = await kapi.kubectl(['get', 'wd', 'columns', '-n', 'gen']);
  t.is(get.code, 0, describe(get));
  const rows = table(get.stdout);
  t.deepEqual(rows[0], ['NAME', 'COLOR', 'REPLICAS', 'AGE']);
  t.deepEqual(rows[1].slice(0, 3), ['columns', 'green', '2']);
  const wide = await kapi.kubectl(['get', 'widgets', 'columns', '-n', 'gen', '-o', 'wide']);
  t.is(wide.code, 0, describe(wide));
  t.deepEqual(table(wide.stdout)[0], ['NAME', 'COLOR', 'REPLICAS', 'SHAPE', 'AGE']);
  t.is(table(wide.stdout)[1][3], 'square');
  const selected = await kapi.kubectl(['get', 'widgets', '-n', 'gen', '--field-selector', 'spec.color=green', '-o', 'name']);
  t.is(selected.code, 0, describe(selected));
  t.is(selected.stdout, 'widget.gen.example.com/columns\n');
  const scale = await kapi.kubectl(['scale', 'widget', 'columns', '-n', 'gen', '--replicas=4']);
  t.is(scale.code, 0, describe(scale));
  const after = await kapi.kubectl(['get', 'widget', 'columns', '-n', 'gen', '-o', 'jsonpath={.spec.replicas}']);
  t.is(after.stdout, '4');
});

test('the deprecated version is served with its warning; the unserved one is not', async (t) => {
  const beta = await kapi.kubectl(['get', 'widgets.v1beta1.gen.example.com', '-n', 'gen']);
  t.is(beta.code, 0, describe(beta));
  t.true(beta.stderr.includes('Warning: gen.example.com/v1beta1 Widget is deprecated; use gen.example.com/v1 Widget'), beta.stderr);
  const alpha = await kapi.kubectl(['get', '--raw', '/apis/gen.example.com/v1alpha1/namespaces/gen/widgets']);
  t.is(alpha.code, 1, describe(alpha));
  t.regex(alpha.stderr, /NotFound|could not find the requested resource/);
});
