/**
 * ObjectMeta is type-checked when a body is decoded, for every kind, codec and write path: a field of the wrong type is
 * kube's decode error and nothing is stored (it used to be stored, and broke lists and selectors afterwards).
 */
import test from 'ava';
import YAML from 'yaml';
import { createNamespace, createWidget, expectStatus, useTestServer, widgetsPath } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const widgetMeta = (name: string, meta: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, ...meta }, spec: { color: 'red' } });

test('create and update of a custom resource: 400 with the decode error of its metadata alone, as kube\'s CRD handler decodes it', async (t) => {
  const ns = await createNamespace(server, 'omd');
  const res = await server.request('POST', widgetsPath(ns), { body: widgetMeta('w1', { labels: 'x' }) });
  expectStatus(t, res, {
    code: 400,
    reason: 'BadRequest',
    message: 'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string',
  });
  t.is((await server.request('GET', widgetsPath(ns, 'w1'))).status, 404);

  const stored = await createWidget(server, ns, 'w2');
  const put = await server.request('PUT', widgetsPath(ns, 'w2'), { body: { ...stored, metadata: { ...stored.metadata, finalizers: 'x' } } });
  expectStatus(t, put, { code: 400, reason: 'BadRequest' });
  t.regex(put.body.message, /json: cannot unmarshal string into Go struct field ObjectMeta\.finalizers of type \[\]string$/);
  t.is((await server.request('GET', widgetsPath(ns, 'w2'))).body.metadata.resourceVersion, stored.metadata.resourceVersion);
});

test('every patch type whose result has malformed metadata is kube\'s 422 on "patch"; nothing changes', async (t) => {
  const ns = await createNamespace(server, 'omd');
  const stored = await createWidget(server, ns, 'w1');
  const patches: [string, unknown][] = [
    ['application/merge-patch+json', { metadata: { labels: 'x' } }],
    ['application/json-patch+json', [{ op: 'add', path: '/metadata/annotations', value: ['a'] }]],
    ['application/strategic-merge-patch+json', { metadata: { ownerReferences: 'x' } }],
  ];
  for (const [contentType, body] of patches) {
    const res = await server.request('PATCH', widgetsPath(ns, 'w1'), { body, contentType });
    expectStatus(t, res, { code: 422, reason: 'Invalid' });
    t.regex(res.body.message, /^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal (string|array) into Go struct field ObjectMeta\.(labels|annotations|ownerReferences) of type/, contentType);
    t.deepEqual(res.body.details.causes.map((c: { field: string }) => c.field), ['patch']);
  }
  t.is((await server.request('GET', widgetsPath(ns, 'w1'))).body.metadata.resourceVersion, stored.metadata.resourceVersion);
});

test('server-side apply of malformed metadata is 400, for a new object and an existing one', async (t) => {
  const ns = await createNamespace(server, 'omd');
  for (const name of ['new', 'existing']) {
    if (name === 'existing') await createWidget(server, ns, name);
    const res = await server.request('PATCH', `${widgetsPath(ns, name)}?fieldManager=m`, {
      rawBody: YAML.stringify(widgetMeta(name, { labels: { a: 5 } })),
      contentType: 'application/apply-patch+yaml',
    });
    expectStatus(t, res, { code: 400, reason: 'BadRequest' });
    t.regex(res.body.message, /json: cannot unmarshal number into Go struct field ObjectMeta\.labels of type string$/);
  }
  t.is((await server.request('GET', widgetsPath(ns, 'new'))).status, 404);
});

test('Namespaces and CRDs (typed kinds) report the path from the object, in every codec', async (t) => {
  const ns = await server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'omd-ns', labels: 'abc' } } });
  expectStatus(t, ns, {
    code: 400,
    reason: 'BadRequest',
    message: 'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
  });
  t.is((await server.request('GET', '/api/v1/namespaces/omd-ns')).status, 404);

  const yamlName = await server.request('POST', '/api/v1/namespaces', { rawBody: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: -1\n', contentType: 'application/yaml' });
  expectStatus(t, yamlName, {
    code: 400,
    reason: 'BadRequest',
    message: 'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
  });

  const crd = await server.request('PATCH', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', {
    body: { metadata: { labels: 'x' } },
    contentType: 'application/merge-patch+json',
  });
  expectStatus(t, crd, { code: 422, reason: 'Invalid' });
  t.regex(crd.body.message, /: json: cannot unmarshal string into Go struct field ObjectMeta\.metadata\.labels of type map\[string\]string$/);
  // CRDs still list as protobuf (a stored malformed CRD used to make that 500 for every client).
  const list = await server.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
  t.is(list.status, 200);
});

test('null metadata values decode to Go zero values: a null finalizer is an empty name, refused by validation', async (t) => {
  const ns = await createNamespace(server, 'omd');
  await createWidget(server, ns, 'w1');
  const res = await server.request('PATCH', widgetsPath(ns, 'w1'), { body: { metadata: { finalizers: [null] } }, contentType: 'application/merge-patch+json' });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.is(res.body.details.causes[0].field, 'metadata.finalizers');
  t.is(res.body.details.causes[0].message, 'Invalid value: "": name part must be non-empty');
});
