// kubectl reads against one `kapi serve`: watches (-w), chunked lists, selectors and the table/output formats.
import test from 'ava';
import { describe, table, useKapi, type KubectlResult } from '../helpers/kapi-process.js';
import { killAllKubectlStreams, spawnKubectl } from '../helpers/kubectl-stream.js';

const kapi = useKapi({ widgets: true });

test.after.always(async () => {
  await killAllKubectlStreams();
});

const age = /^\d+[smhd]/;

/** Runs kubectl and throws (with its output) unless it exits 0. */
async function ok(args: string[], stdin?: string): Promise<KubectlResult> {
  const res = await kapi.kubectl(args, { stdin });
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res;
}

interface W {
  name: string;
  color?: string;
  replicas?: number;
  labels?: Record<string, string>;
}

function widgetYaml(w: W): string {
  const labels = w.labels ? `  labels:\n${Object.entries(w.labels).map(([k, v]) => `    ${k}: ${v}\n`).join('')}` : '';
  return `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ${w.name}\n${labels}spec:\n  color: ${w.color ?? 'red'}\n  replicas: ${w.replicas ?? 1}\n`;
}

/** Creates namespace `ns` (from a manifest, as setUpWidgets does) and the given widgets in it. */
async function namespaceWith(ns: string, widgets: W[]): Promise<void> {
  await ok(['apply', '-f', '-'], `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`);
  if (widgets.length > 0) await ok(['-n', ns, 'apply', '-f', '-'], widgets.map(widgetYaml).join('---\n'));
}

function firstCells(stdout: string): string[] {
  return table(stdout).map((r) => r[0]!);
}

// ---------------------------------------------------------------------------------------------------------------
// kubectl get -w

test('get widgets -w -n NS prints the header and existing rows, then a row for each create, change and delete', async (t) => {
  const ns = 'watch-rows';
  await namespaceWith(ns, [{ name: 'wa', color: 'blue', replicas: 3 }]);
  const w = spawnKubectl(kapi, ['get', 'widgets', '-w', '-n', ns]);
  try {
    const header = await w.waitForLine(/^NAME\s+COLOR\s+REPLICAS\s+AGE\s*$/);
    t.is(header, 0, `the header comes first\n${w.describe()}`);
    await w.waitForLine(/^wa\s+blue\s+3\s+\d+[smhd]\S*\s*$/, { from: header + 1 });

    let mark = w.lines.length;
    await ok(['-n', ns, 'apply', '-f', '-'], widgetYaml({ name: 'wb', color: 'red', replicas: 1 }));
    await w.waitForLine(/^wb\s+red\s+1\s+\S+\s*$/, { from: mark });

    mark = w.lines.length;
    await ok(['-n', ns, 'patch', 'widget', 'wa', '--type=merge', '-p', '{"spec":{"color":"green"}}']);
    await w.waitForLine(/^wa\s+green\s+3\s+\S+\s*$/, { from: mark });

    mark = w.lines.length;
    await ok(['-n', ns, 'delete', 'widget', 'wb']);
    await w.waitForLine(/^wb\s/, { from: mark });

    t.deepEqual(w.lines.map((l) => l.split(/\s+/)[0]), ['NAME', 'wa', 'wb', 'wa', 'wb'], w.describe());
    t.is(w.stderr(), '', w.describe());
  } finally {
    await w.kill();
  }
});

test('get widgets -w in an empty namespace prints the first created widget with the header', async (t) => {
  const ns = 'watch-empty';
  await namespaceWith(ns, []);
  const w = spawnKubectl(kapi, ['get', 'widgets', '-w', '-n', ns]);
  try {
    // kubectl has nothing to print until the first event; give it time to list and start watching.
    await new Promise((r) => setTimeout(r, 1500));
    await ok(['-n', ns, 'apply', '-f', '-'], widgetYaml({ name: 'first', color: 'teal', replicas: 2 }));
    const row = await w.waitForLine(/^first\s+teal\s+2\s+\S+\s*$/);
    t.regex(w.lines.slice(0, row).join('\n'), /^NAME\s+COLOR\s+REPLICAS\s+AGE\s*$/m, w.describe());
  } finally {
    await w.kill();
  }
});

test('get widgets -w --output-watch-events prints ADDED, MODIFIED and DELETED in an EVENT column', async (t) => {
  const ns = 'watch-events';
  await namespaceWith(ns, [{ name: 'ea', color: 'blue', replicas: 3 }]);
  const w = spawnKubectl(kapi, ['get', 'widgets', '-w', '--output-watch-events', '-n', ns]);
  try {
    const header = await w.waitForLine(/^EVENT\s+NAME\s+COLOR\s+REPLICAS\s+AGE\s*$/);
    t.is(header, 0, w.describe());
    await w.waitForLine(/^ADDED\s+ea\s+blue\s+3\s+\S+\s*$/, { from: header + 1 });

    let mark = w.lines.length;
    await ok(['-n', ns, 'apply', '-f', '-'], widgetYaml({ name: 'eb', color: 'red', replicas: 1 }));
    await w.waitForLine(/^ADDED\s+eb\s+red\s+1\s/, { from: mark });

    mark = w.lines.length;
    await ok(['-n', ns, 'patch', 'widget', 'ea', '--type=merge', '-p', '{"spec":{"color":"green"}}']);
    await w.waitForLine(/^MODIFIED\s+ea\s+green\s+3\s/, { from: mark });

    mark = w.lines.length;
    await ok(['-n', ns, 'delete', 'widget', 'eb']);
    await w.waitForLine(/^DELETED\s+eb\s+red\s+1\s/, { from: mark });

    t.deepEqual(
      w.lines.map((l) => l.split(/\s+/).slice(0, 2).join(' ')),
      ['EVENT NAME', 'ADDED ea', 'ADDED eb', 'MODIFIED ea', 'DELETED eb'],
      w.describe(),
    );
  } finally {
    await w.kill();
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Chunked lists

test('get widgets --chunk-size=2 pages with limit=2 and continue tokens and prints all 5 once', async (t) => {
  const ns = 'chunks';
  const all = ['c1', 'c2', 'c3', 'c4', 'c5'];
  await namespaceWith(ns, all.map((name) => ({ name })));
  const res = await kapi.kubectl(['-n', ns, 'get', 'widgets', '--chunk-size=2', '-v=6']);
  t.is(res.code, 0, describe(res));
  const rows = table(res.stdout);
  t.deepEqual(rows[0], ['NAME', 'COLOR', 'REPLICAS', 'AGE'], describe(res));
  t.deepEqual(rows.slice(1).map((r) => r[0]), all, describe(res));

  const gets = res.stderr.split('\n').filter((l) => /\bGET https:\/\/\S+\/apis\/example\.com\/v1\/namespaces\/chunks\/widgets\?/.test(l));
  t.is(gets.length, 3, `three pages of at most 2\n${describe(res)}`);
  t.true(gets.every((l) => /[?&]limit=2\b/.test(l)), describe(res));
  t.false(/[?&]continue=/.test(gets[0] ?? ''), `the first page has no continue\n${describe(res)}`);
  t.true(gets.slice(1).every((l) => /[?&]continue=[^&\s]+/.test(l)), `later pages carry continue=\n${describe(res)}`);
  t.true(gets.every((l) => / 200 OK /.test(l)), describe(res));
});

// ---------------------------------------------------------------------------------------------------------------
// Selectors

const selectorWidgets: W[] = [
  { name: 'w1', labels: { tier: 'gold' } },
  { name: 'w2', labels: { tier: 'silver' } },
  { name: 'w3', labels: { tier: 'gold' } },
  { name: 'w4', labels: { other: 'x' } },
  { name: 'w5', labels: { tier: 'bronze' } },
];

test('get widgets -l and --field-selector print only the matching widgets', async (t) => {
  const ns = 'selectors';
  await namespaceWith(ns, selectorWidgets);
  const cases: [string[], string[]][] = [
    [['-l', 'tier=gold'], ['w1', 'w3']],
    [['--field-selector', 'metadata.name=w1'], ['w1']],
    [['-l', 'tier in (gold,silver)'], ['w1', 'w2', 'w3']],
    [['-l', '!tier'], ['w4']],
    [['-l', 'tier'], ['w1', 'w2', 'w3', 'w5']],
    [['-l', 'tier notin (gold)'], ['w2', 'w4', 'w5']],
    [['-l', 'tier=gold', '--field-selector', 'metadata.name!=w1'], ['w3']],
  ];
  for (const [flags, expected] of cases) {
    const res = await kapi.kubectl(['-n', ns, 'get', 'widgets', '--no-headers', ...flags]);
    t.is(res.code, 0, `${flags.join(' ')}: ${describe(res)}`);
    t.deepEqual(firstCells(res.stdout), expected, `${flags.join(' ')}: ${describe(res)}`);
  }
});

test("get widgets -l 'tier in gold' fails with the server's parse error", async (t) => {
  const ns = 'bad-selector';
  await namespaceWith(ns, [{ name: 'w1', labels: { tier: 'gold' } }]);
  const res = await kapi.kubectl(['-n', ns, 'get', 'widgets', '-l', 'tier in gold']);
  t.not(res.code, 0, describe(res));
  t.is(res.stdout, '', describe(res));
  t.regex(res.stderr, /^Error from server \(BadRequest\): /m, describe(res));
  t.regex(res.stderr, /unable to parse requirement/, describe(res));
  t.regex(res.stderr, /'gold'/, describe(res));
});

// ---------------------------------------------------------------------------------------------------------------
// Tables and output formats

test('get widgets prints NAME COLOR REPLICAS AGE and the values', async (t) => {
  const ns = 'columns';
  await namespaceWith(ns, [{ name: 'p1', color: 'blue', replicas: 3 }, { name: 'p2', color: 'red', replicas: 0 }]);
  const res = await kapi.kubectl(['-n', ns, 'get', 'widgets']);
  t.is(res.code, 0, describe(res));
  const rows = table(res.stdout);
  t.deepEqual(rows[0], ['NAME', 'COLOR', 'REPLICAS', 'AGE'], describe(res));
  t.deepEqual(rows.slice(1).map((r) => r.slice(0, 3)), [['p1', 'blue', '3'], ['p2', 'red', '0']], describe(res));
  for (const r of rows.slice(1)) {
    t.is(r.length, 4, describe(res));
    t.regex(r[3]!, age, describe(res));
  }
});

test('a CRD without additionalPrinterColumns prints NAME AGE', async (t) => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: { plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: { type: integer }
`;
  await ok(['apply', '-f', '-'], crd);
  await ok(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/gadgets.example.com']);
  const ns = 'gadgets';
  await namespaceWith(ns, []);
  await ok(['-n', ns, 'apply', '-f', '-'], 'apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g1\nspec:\n  size: 7\n');
  const res = await kapi.kubectl(['-n', ns, 'get', 'gadgets']);
  t.is(res.code, 0, describe(res));
  const rows = table(res.stdout);
  t.deepEqual(rows[0], ['NAME', 'AGE'], describe(res));
  t.is(rows.length, 2, describe(res));
  t.is(rows[1]![0], 'g1', describe(res));
  t.regex(rows[1]![1] ?? '', age, describe(res));
  t.is(rows[1]!.length, 2, describe(res));
});

test('get widgets -o wide, -o name and -o jsonpath', async (t) => {
  const ns = 'formats';
  await namespaceWith(ns, [{ name: 'f1', color: 'blue', replicas: 3 }, { name: 'f2', color: 'red', replicas: 1 }]);

  const wide = await kapi.kubectl(['-n', ns, 'get', 'widgets', '-o', 'wide']);
  t.is(wide.code, 0, describe(wide));
  const rows = table(wide.stdout);
  t.deepEqual(rows[0], ['NAME', 'COLOR', 'REPLICAS', 'AGE'], `no column has priority > 0\n${describe(wide)}`);
  t.deepEqual(rows.slice(1).map((r) => r.slice(0, 3)), [['f1', 'blue', '3'], ['f2', 'red', '1']], describe(wide));

  const name = await kapi.kubectl(['-n', ns, 'get', 'widgets', '-o', 'name']);
  t.is(name.code, 0, describe(name));
  t.is(name.stdout, 'widget.example.com/f1\nwidget.example.com/f2\n', describe(name));

  const jsonpath = await kapi.kubectl(['-n', ns, 'get', 'widgets', '-o', 'jsonpath={.items[*].metadata.name}']);
  t.is(jsonpath.code, 0, describe(jsonpath));
  t.is(jsonpath.stdout, 'f1 f2', describe(jsonpath));
});

test('get widgets -A shows a NAMESPACE column', async (t) => {
  const ns = 'all-namespaces';
  await namespaceWith(ns, [{ name: 'a1', color: 'blue', replicas: 3 }]);
  const res = await kapi.kubectl(['get', 'widgets', '-A']);
  t.is(res.code, 0, describe(res));
  const rows = table(res.stdout);
  t.deepEqual(rows[0], ['NAMESPACE', 'NAME', 'COLOR', 'REPLICAS', 'AGE'], describe(res));
  t.deepEqual(rows.find((r) => r[0] === ns && r[1] === 'a1')?.slice(0, 4), [ns, 'a1', 'blue', '3'], describe(res));
  t.true(rows.slice(1).every((r) => r.length === 5), describe(res));
});
