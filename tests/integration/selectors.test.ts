/**
 * Label and field selectors beyond what lists.test.ts covers (every label operator on list): the label operators on
 * watch and deletecollection, a CRD version's selectableFields, and the 400s for unsupported fields and bad selectors.
 */
import test from 'ava';
import {
  createNamespace,
  createWidget,
  expectStatus,
  installCrd,
  names,
  useTestServer,
  widgetsPath,
  type WatchEvent,
} from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const summary = (e: WatchEvent) => `${e.type} ${e.object?.metadata?.name}`;

/** w1, w2 gold; w3 silver; w4 gold; w5 unlabelled. */
async function fiveWidgets(): Promise<string> {
  const ns = await createNamespace(server, 'sel');
  const tiers: (string | undefined)[] = ['gold', 'gold', 'silver', 'gold', undefined];
  for (const [i, tier] of tiers.entries()) await createWidget(server, ns, `w${i + 1}`, tier ? { labels: { tier } } : {});
  return ns;
}

const operators: [string, string[]][] = [
  ['tier=gold', ['w1', 'w2', 'w4']],
  ['tier==gold', ['w1', 'w2', 'w4']],
  ['tier!=gold', ['w3', 'w5']],
  ['tier in (gold,silver)', ['w1', 'w2', 'w3', 'w4']],
  ['tier notin (gold)', ['w3', 'w5']],
  ['tier', ['w1', 'w2', 'w3', 'w4']],
  ['!tier', ['w5']],
];

test('label selector operators on watch: initial ADDED and later changes only for matching objects', async (t) => {
  const ns = await fiveWidgets();
  const watches = await Promise.all(
    operators.map(([selector]) => server.watch(`${widgetsPath(ns)}?watch=1&labelSelector=${encodeURIComponent(selector)}`)),
  );
  try {
    for (const [i, [selector, expected]] of operators.entries()) {
      t.is(watches[i]!.status, 200, selector);
      const initial: WatchEvent[] = [];
      for (let k = 0; k < expected.length; k++) initial.push(await watches[i]!.next());
      t.deepEqual(initial.map(summary).sort(), expected.map((n) => `ADDED ${n}`), selector);
    }
    // Touch every widget without changing its tier: each watch sees MODIFIED for its matches only.
    for (let i = 1; i <= 5; i++) {
      const res = await server.request('PATCH', widgetsPath(ns, `w${i}`), { body: { spec: { color: 'blue' } }, contentType: 'application/merge-patch+json' });
      t.is(res.status, 200);
    }
    await server
      .waitFor(() => operators.every(([, expected], i) => watches[i]!.events.length >= 2 * expected.length), 5000)
      .catch(() => undefined);
    await sleep(200);
    for (const [i, [selector, expected]] of operators.entries()) {
      const later = watches[i]!.events.slice(expected.length).map(summary);
      t.deepEqual(later, expected.map((n) => `MODIFIED ${n}`), selector);
    }
  } finally {
    for (const w of watches) w.close();
  }
});

for (const [selector, matching] of operators) {
  test(`deletecollection with labelSelector ${selector} deletes only the matching objects`, async (t) => {
    const ns = await fiveWidgets();
    const res = await server.request('DELETE', `${widgetsPath(ns)}?labelSelector=${encodeURIComponent(selector)}`);
    t.is(res.status, 200, res.text.slice(0, 300));
    const left = await server.request('GET', widgetsPath(ns));
    const all = ['w1', 'w2', 'w3', 'w4', 'w5'];
    t.deepEqual(names(left.body), all.filter((n) => !matching.includes(n)));
  });
}

test('a bad label selector is 400 on list, watch and deletecollection', async (t) => {
  const ns = await fiveWidgets();
  const bad = encodeURIComponent('tier in (gold');
  for (const [method, path] of [
    ['GET', `${widgetsPath(ns)}?labelSelector=${bad}`],
    ['GET', `${widgetsPath(ns)}?watch=1&timeoutSeconds=2&labelSelector=${bad}`],
    ['DELETE', `${widgetsPath(ns)}?labelSelector=${bad}`],
  ] as const) {
    const res = await server.request(method, path);
    expectStatus(t, res, { code: 400, reason: 'BadRequest' });
  }
  t.deepEqual(names((await server.request('GET', widgetsPath(ns))).body), ['w1', 'w2', 'w3', 'w4', 'w5'], 'nothing was deleted');
});

// ---------------------------------------------------------------------------------------------------------------
// selectableFields of a CRD version

const gadgetsCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.selectors.example.com' },
  spec: {
    group: 'selectors.example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        selectableFields: [{ jsonPath: '.spec.color' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' } } } },
          },
        },
      },
    ],
  },
};

let gadgetsInstalled: Promise<void> | undefined;
const gadgets = (ns: string, name?: string) => `/apis/selectors.example.com/v1/namespaces/${ns}/gadgets${name ? `/${name}` : ''}`;

async function gadgetNamespace(): Promise<string> {
  gadgetsInstalled ??= installCrd(server, gadgetsCrd);
  await gadgetsInstalled;
  const ns = await createNamespace(server, 'gad');
  for (const [name, color] of [['g1', 'blue'], ['g2', 'red'], ['g3', 'blue'], ['g4', 'green']]) {
    const res = await server.request('POST', gadgets(ns), {
      body: { apiVersion: 'selectors.example.com/v1', kind: 'Gadget', metadata: { name }, spec: { color, size: 1 } },
    });
    if (res.status !== 201) throw new Error(`creating gadget ${name}: ${res.status} ${res.text}`);
  }
  return ns;
}

test('fieldSelector on a selectable field of a CRD version: = and !=', async (t) => {
  const ns = await gadgetNamespace();
  const eq = await server.request('GET', `${gadgets(ns)}?fieldSelector=${encodeURIComponent('spec.color=blue')}`);
  t.is(eq.status, 200, eq.text.slice(0, 300));
  t.deepEqual(names(eq.body), ['g1', 'g3']);
  const ne = await server.request('GET', `${gadgets(ns)}?fieldSelector=${encodeURIComponent('spec.color!=blue')}`);
  t.is(ne.status, 200, ne.text.slice(0, 300));
  t.deepEqual(names(ne.body), ['g2', 'g4']);
  const both = await server.request('GET', `${gadgets(ns)}?fieldSelector=${encodeURIComponent('spec.color=blue,metadata.name!=g1')}`);
  t.deepEqual(names(both.body), ['g3']);
});

test('a watch with a selectable-field selector sees objects enter and leave the selection', async (t) => {
  const ns = await gadgetNamespace();
  const watch = await server.watch(`${gadgets(ns)}?watch=1&fieldSelector=${encodeURIComponent('spec.color=blue')}`);
  const patch = (name: string, color: string) =>
    server.request('PATCH', gadgets(ns, name), { body: { spec: { color } }, contentType: 'application/merge-patch+json' });
  try {
    t.is(watch.status, 200);
    t.deepEqual([await watch.next(), await watch.next()].map(summary).sort(), ['ADDED g1', 'ADDED g3']);
    await patch('g2', 'blue');
    await patch('g1', 'red');
    await patch('g4', 'yellow');
    t.deepEqual([await watch.next(), await watch.next()].map(summary), ['ADDED g2', 'DELETED g1']);
    await sleep(200);
    t.is(watch.events.length, 4, watch.events.map(summary).join(', '));
  } finally {
    watch.close();
  }
});

test('a field selector on a field that is not selectable is 400 "field label not supported"', async (t) => {
  const ns = await gadgetNamespace();
  for (const path of [
    `${gadgets(ns)}?fieldSelector=${encodeURIComponent('spec.size=1')}`,
    `${gadgets(ns)}?watch=1&timeoutSeconds=2&fieldSelector=${encodeURIComponent('spec.size=1')}`,
  ]) {
    const res = await server.request('GET', path);
    expectStatus(t, res, { code: 400, reason: 'BadRequest', message: 'field label not supported: spec.size' });
  }
});
