/**
 * Alternate representations of resources, negotiated from Accept: meta.k8s.io Tables (`kubectl get`),
 * PartialObjectMetadata(List) (client-go's metadata client), fallbacks between media ranges, and 406.
 */
import test from 'ava';
import YAML from 'yaml';
import { createNamespace, createWidget, expectStatus, installCrd, useTestServer, widgetsPath, type TestResponse } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const PARTIAL = 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io';
const PARTIAL_LIST = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
/** A printed age (HumanDuration): `0s`, `59s`, `2m`, `5m30s`, … */
const AGE = /^\d+[smhdy](\d+[smhd])?$/;

let ns = '';

/** w1 red ×1, w2 blue ×3, w3 green ×0; the plural of a CRD without additionalPrinterColumns. */
test.serial.before(async () => {
  ns = await createNamespace(server, 'repr');
  await createWidget(server, ns, 'w1', { spec: { color: 'red', replicas: 1 } });
  await createWidget(server, ns, 'w2', { spec: { color: 'blue', replicas: 3 } });
  await createWidget(server, ns, 'w3', { spec: { color: 'green', replicas: 0 } });
  await installCrd(server, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.repr.example.com' },
    spec: {
      group: 'repr.example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
    },
  });
  const g = await server.request('POST', `/apis/repr.example.com/v1/namespaces/${ns}/gadgets`, {
    body: { apiVersion: 'repr.example.com/v1', kind: 'Gadget', metadata: { name: 'g1' }, spec: { size: 2 } },
  });
  if (g.status !== 201) throw new Error(`creating gadget: ${g.status} ${g.text}`);
});

function get(path: string, accept: string): Promise<TestResponse> {
  return server.request('GET', path, { headers: { accept } });
}

/** A Content-Type as media type and parameters, so the order of the parameters does not matter. */
function mediaType(header: string | undefined): { type: string; params: Record<string, string> } {
  const [type = '', ...params] = (header ?? '').split(';').map((s) => s.trim());
  return { type, params: Object.fromEntries(params.map((p) => p.split('=') as [string, string])) };
}

function columns(table: any): [string, string, string][] {
  return table.columnDefinitions.map((c: any) => [c.name, c.type, c.format]);
}

const widgetColumns = [
  ['Name', 'string', 'name'],
  ['Color', 'string', ''],
  ['Replicas', 'integer', ''],
  ['Age', 'date', ''],
];

test('GET as Table: the CRD printer columns, one row, and PartialObjectMetadata as the row object', async (t) => {
  const plain = await server.request('GET', widgetsPath(ns, 'w2'));
  const res = await get(widgetsPath(ns, 'w2'), TABLE);
  t.is(res.status, 200, res.text);
  t.deepEqual(mediaType(res.headers['content-type']), { type: 'application/json', params: { as: 'Table', v: 'v1', g: 'meta.k8s.io' } });
  t.is(res.body.kind, 'Table');
  t.is(res.body.apiVersion, 'meta.k8s.io/v1');
  t.deepEqual(columns(res.body), widgetColumns);
  t.is(res.body.rows.length, 1);
  const [row] = res.body.rows;
  t.deepEqual(row.cells.slice(0, 3), ['w2', 'blue', 3]);
  t.regex(row.cells[3], AGE);
  t.deepEqual(row.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: plain.body.metadata });
});

test('LIST as Table: a row per object in list order, and the list metadata', async (t) => {
  const plain = await server.request('GET', widgetsPath(ns));
  const res = await get(widgetsPath(ns), TABLE);
  t.is(res.status, 200, res.text);
  t.is(res.body.kind, 'Table');
  t.is(res.body.apiVersion, 'meta.k8s.io/v1');
  t.deepEqual(columns(res.body), widgetColumns);
  t.regex(res.body.metadata.resourceVersion, /^\d+$/);
  t.true(Number(res.body.metadata.resourceVersion) >= Number(plain.body.metadata.resourceVersion));
  t.deepEqual(
    res.body.rows.map((r: any) => r.cells.slice(0, 3)),
    [['w1', 'red', 1], ['w2', 'blue', 3], ['w3', 'green', 0]],
  );
  for (const [i, row] of res.body.rows.entries()) {
    t.regex(row.cells[3], AGE);
    t.like(row.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: `w${i + 1}`, namespace: ns, uid: plain.body.items[i].metadata.uid } });
    t.is(row.object.spec, undefined);
  }
});

test('includeObject=Object puts the whole Widget in each row; None leaves the rows without an object', async (t) => {
  const plainGet = await server.request('GET', widgetsPath(ns, 'w1'));
  const plainList = await server.request('GET', widgetsPath(ns));

  const full = await get(`${widgetsPath(ns, 'w1')}?includeObject=Object`, TABLE);
  t.is(full.status, 200, full.text);
  t.deepEqual(full.body.rows[0].object, plainGet.body);
  const fullList = await get(`${widgetsPath(ns)}?includeObject=Object`, TABLE);
  t.deepEqual(fullList.body.rows.map((r: any) => r.object), plainList.body.items);

  for (const path of [widgetsPath(ns, 'w1'), widgetsPath(ns)]) {
    const none = await get(`${path}?includeObject=None`, TABLE);
    t.is(none.status, 200, none.text);
    t.true(none.body.rows.length > 0);
    for (const row of none.body.rows) t.falsy(row.object, 'no object in the row');
    t.is(none.body.rows[0].cells[0], 'w1');

    const metadata = await get(`${path}?includeObject=Metadata`, TABLE);
    t.is(metadata.body.rows[0].object.kind, 'PartialObjectMetadata');
  }
});

test('an unsupported includeObject is 400 for a Table, and ignored for other representations', async (t) => {
  for (const path of [widgetsPath(ns, 'w1'), widgetsPath(ns)]) {
    const res = await get(`${path}?includeObject=Everything`, TABLE);
    expectStatus(t, res, { code: 400, reason: 'BadRequest' });
    t.regex(res.body.message, /includeObject: Unsupported value: "Everything": supported values: "Metadata", "None", "Object"/);

    const plain = await get(`${path}?includeObject=Everything`, 'application/json');
    t.is(plain.status, 200, plain.text);
  }
});

test('a CRD version without additionalPrinterColumns is printed as Name and Age', async (t) => {
  const path = `/apis/repr.example.com/v1/namespaces/${ns}/gadgets`;
  for (const res of [await get(path, TABLE), await get(`${path}/g1`, TABLE)]) {
    t.is(res.status, 200, res.text);
    t.is(res.body.kind, 'Table');
    t.deepEqual(columns(res.body), [
      ['Name', 'string', 'name'],
      ['Age', 'date', ''],
    ]);
    t.is(res.body.rows.length, 1);
    t.is(res.body.rows[0].cells[0], 'g1');
    t.regex(res.body.rows[0].cells[1], AGE);
  }
});

test('a Table list page carries continue, and the next page continues the rows', async (t) => {
  const page1 = await get(`${widgetsPath(ns)}?limit=2`, TABLE);
  t.is(page1.status, 200, page1.text);
  t.deepEqual(page1.body.rows.map((r: any) => r.cells[0]), ['w1', 'w2']);
  t.regex(page1.body.metadata.resourceVersion, /^\d+$/);
  t.truthy(page1.body.metadata.continue);
  t.is(page1.body.metadata.remainingItemCount, 1);

  const page2 = await get(`${widgetsPath(ns)}?limit=2&continue=${encodeURIComponent(page1.body.metadata.continue)}`, TABLE);
  t.is(page2.status, 200, page2.text);
  t.deepEqual(page2.body.rows.map((r: any) => r.cells[0]), ['w3']);
  t.is(page2.body.metadata.resourceVersion, page1.body.metadata.resourceVersion);
  t.is(page2.body.metadata.continue, undefined);
});

test('as=PartialObjectMetadata: GET answers the object metadata only', async (t) => {
  const plain = await server.request('GET', widgetsPath(ns, 'w1'));
  const res = await get(widgetsPath(ns, 'w1'), PARTIAL);
  t.is(res.status, 200, res.text);
  t.deepEqual(mediaType(res.headers['content-type']), { type: 'application/json', params: { as: 'PartialObjectMetadata', v: 'v1', g: 'meta.k8s.io' } });
  t.deepEqual(res.body, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: plain.body.metadata });
});

test('LIST as PartialObjectMetadata or PartialObjectMetadataList answers a PartialObjectMetadataList', async (t) => {
  const plain = await server.request('GET', widgetsPath(ns));
  // client-go's metadata client asks for PartialObjectMetadataList on lists.
  for (const accept of [PARTIAL, PARTIAL_LIST]) {
    const res = await get(`${widgetsPath(ns)}?limit=2`, accept);
    t.is(res.status, 200, res.text);
    t.is(res.body.kind, 'PartialObjectMetadataList');
    t.is(res.body.apiVersion, 'meta.k8s.io/v1');
    t.regex(res.body.metadata.resourceVersion, /^\d+$/);
    t.truthy(res.body.metadata.continue);
    t.deepEqual(
      res.body.items,
      plain.body.items.slice(0, 2).map((o: any) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata })),
    );
  }
});

test('v=v1beta1 asks for meta.k8s.io/v1beta1 Tables and PartialObjectMetadata', async (t) => {
  const table = await get(widgetsPath(ns), 'application/json;as=Table;v=v1beta1;g=meta.k8s.io');
  t.is(table.status, 200, table.text);
  t.like(table.body, { kind: 'Table', apiVersion: 'meta.k8s.io/v1beta1' });
  t.is(table.body.rows.length, 3);
  t.is(mediaType(table.headers['content-type']).params['v'], 'v1beta1');

  const partial = await get(widgetsPath(ns, 'w1'), 'application/json;as=PartialObjectMetadata;v=v1beta1;g=meta.k8s.io');
  t.like(partial.body, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: { name: 'w1' } });

  const partialList = await get(widgetsPath(ns), 'application/json;as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io');
  t.like(partialList.body, { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1beta1' });
  for (const item of partialList.body.items) t.is(item.apiVersion, 'meta.k8s.io/v1beta1');
});

test('an unsupported conversion is skipped for the next media range the client accepts', async (t) => {
  const unknownVersion = await get(widgetsPath(ns, 'w1'), 'application/json;as=Table;v=v9;g=meta.k8s.io, application/json');
  t.is(unknownVersion.status, 200, unknownVersion.text);
  t.is(unknownVersion.headers['content-type'], 'application/json');
  t.like(unknownVersion.body, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } });

  const unknownKind = await get(widgetsPath(ns), 'application/json;as=Foo;g=meta.k8s.io;v=v1,application/json;as=Table;g=meta.k8s.io;v=v1');
  t.is(unknownKind.status, 200, unknownKind.text);
  t.is(unknownKind.body.kind, 'Table');

  const otherGroup = await get(widgetsPath(ns), 'application/json;as=Table;v=v1;g=example.com, application/json');
  t.is(otherGroup.body.kind, 'WidgetList');
});

test('q-values order the media ranges; equal q prefers the more specific range', async (t) => {
  const table = await get(widgetsPath(ns), `application/json;q=0.5, ${TABLE};q=0.9`);
  t.is(table.status, 200, table.text);
  t.is(table.body.kind, 'Table');

  const plain = await get(widgetsPath(ns), `${TABLE};q=0.5, application/json;q=0.9`);
  t.is(plain.body.kind, 'WidgetList');

  // As goautoneg sorts them for kube: a concrete type before a wildcard of the same q.
  const yaml = await get(widgetsPath(ns, 'w1'), '*/*, application/yaml');
  t.is(yaml.status, 200, yaml.text);
  t.is(yaml.headers['content-type'], 'application/yaml');
  t.like(YAML.parse(yaml.text), { kind: 'Widget', metadata: { name: 'w1' } });
});

test('a Table can be served as YAML', async (t) => {
  const res = await get(widgetsPath(ns), 'application/yaml;as=Table;v=v1;g=meta.k8s.io');
  t.is(res.status, 200, res.text);
  t.deepEqual(mediaType(res.headers['content-type']), { type: 'application/yaml', params: { as: 'Table', v: 'v1', g: 'meta.k8s.io' } });
  const table = YAML.parse(res.text);
  t.is(table.kind, 'Table');
  t.deepEqual(table.rows.map((r: any) => r.cells[0]), ['w1', 'w2', 'w3']);
});

test('nothing acceptable is 406 NotAcceptable with a JSON Status', async (t) => {
  const accepts = [
    'text/html',
    'application/xml, text/plain;q=0.5',
    'application/json;as=Table;v=v9;g=meta.k8s.io',
    // g and v without as name no kind: kube does not fall back to the plain object for it.
    'application/json;g=meta.k8s.io;v=v1',
  ];
  for (const accept of accepts) {
    for (const path of [widgetsPath(ns, 'w1'), widgetsPath(ns), '/api/v1/namespaces']) {
      const res = await get(path, accept);
      t.is(mediaType(res.headers['content-type']).type, 'application/json', `${accept} ${path}`);
      expectStatus(t, res, { code: 406, reason: 'NotAcceptable' });
    }
  }
});

test('namespaces (a built-in) as Table: Name, Status and Age', async (t) => {
  const one = await get(`/api/v1/namespaces/${ns}`, TABLE);
  t.is(one.status, 200, one.text);
  t.like(one.body, { kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
  t.deepEqual(one.body.columnDefinitions.map((c: any) => c.name), ['Name', 'Status', 'Age']);
  t.is(one.body.columnDefinitions[0].format, 'name');
  t.deepEqual(one.body.rows[0].cells.slice(0, 2), [ns, 'Active']);
  t.regex(one.body.rows[0].cells[2], AGE);
  t.like(one.body.rows[0].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: ns } });

  const list = await get('/api/v1/namespaces', TABLE);
  t.is(list.status, 200, list.text);
  t.regex(list.body.metadata.resourceVersion, /^\d+$/);
  const names = list.body.rows.map((r: any) => r.cells[0]);
  for (const name of ['default', 'kube-system', ns]) t.true(names.includes(name), name);
});

test('namespaces as PartialObjectMetadata and PartialObjectMetadataList', async (t) => {
  const one = await get(`/api/v1/namespaces/${ns}`, PARTIAL);
  t.is(one.status, 200, one.text);
  t.like(one.body, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: ns } });
  t.is(one.body.spec, undefined);
  t.is(one.body.status, undefined);

  const list = await get('/api/v1/namespaces', PARTIAL_LIST);
  t.is(list.status, 200, list.text);
  t.is(list.body.kind, 'PartialObjectMetadataList');
  t.regex(list.body.metadata.resourceVersion, /^\d+$/);
  t.true(list.body.items.some((i: any) => i.metadata.name === ns));
  for (const item of list.body.items) t.is(item.kind, 'PartialObjectMetadata');
});
