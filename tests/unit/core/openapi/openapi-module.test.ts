import 'reflect-metadata';
import test from 'ava';
import { createHash } from 'node:crypto';
import { openapiModule } from '../../../../core/openapi/openapi-module.js';
import type { ResourceType } from '../../../../core/contracts/resource-type.js';
import { defaultServerConfig } from '../../../../core/contracts/server-config.js';
import { namespaces, widgetsType } from '../../../helpers/resource-types.js';
import { registryContainer, serveRoutes } from '../../../helpers/route-server.js';

const widgets = widgetsType({
  type: 'object',
  description: 'A widget.',
  properties: {
    metadata: { type: 'object' },
    spec: { type: 'object', properties: { replicas: { type: 'integer', description: 'How many.' } } },
  },
});

const objectMetaRef = { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] };
const widgetGvk = { group: 'example.com', kind: 'Widget', version: 'v1' };

interface Doc {
  paths: Record<string, Record<string, { operationId?: string; parameters?: { name: string; in: string }[]; [k: string]: unknown }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

/** The OpenAPI module in a child container, served by a koa app that dispatches to the registered routes. */
async function serve(types: ResourceType[] = [widgets, namespaces]) {
  const { c, registry } = registryContainer(types);
  openapiModule()(c);
  const { host, close } = await serveRoutes(c);
  return {
    registry,
    get: (path: string, headers: Record<string, string> = {}) => fetch(`http://${host}${path}`, { headers, redirect: 'manual' }),
    close,
  };
}

const sha512 = (text: string) => createHash('sha512').update(text).digest('hex').toUpperCase();

/** Every `$ref` in a document, with the prefix it must point into. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

test('/openapi/v3 lists each group-version with the hash of its document', async (t) => {
  const s = await serve();
  t.teardown(s.close);
  const root = (await (await s.get('/openapi/v3')).json()) as { paths: Record<string, { serverRelativeURL: string }> };
  t.deepEqual(Object.keys(root.paths), ['api/v1', 'apis/example.com/v1']);
  for (const [key, { serverRelativeURL }] of Object.entries(root.paths)) {
    const hash = /^\/openapi\/v3\/(.+)\?hash=([0-9A-F]{128})$/.exec(serverRelativeURL);
    t.is(hash?.[1], key);
    const body = await (await s.get(`/openapi/v3/${key}`)).text();
    t.is(hash?.[2], sha512(body));
  }
});

test('a group-version document asked for with its hash is immutable JSON with an ETag', async (t) => {
  const s = await serve();
  t.teardown(s.close);
  const root = (await (await s.get('/openapi/v3')).json()) as { paths: Record<string, { serverRelativeURL: string }> };
  const url = root.paths['apis/example.com/v1']!.serverRelativeURL;
  const hash = url.slice(url.indexOf('hash=') + 5);
  const res = await s.get(url);
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/json');
  t.is(res.headers.get('cache-control'), 'public, immutable');
  t.is(res.headers.get('etag'), `"${hash}"`);
  t.is(res.headers.get('vary'), 'Accept');
  t.true(Date.parse(res.headers.get('expires') ?? '') > Date.now() + 364 * 24 * 3600 * 1000);

  const plain = await s.get('/openapi/v3/apis/example.com/v1');
  t.is(plain.headers.get('cache-control'), null);
  t.is(plain.headers.get('etag'), `"${hash}"`);

  const cached = await s.get('/openapi/v3/apis/example.com/v1', { 'If-None-Match': `"${hash}"` });
  t.is(cached.status, 304);
  t.is(await cached.text(), '');
});

test('/openapi/v3 carries an ETag and Last-Modified and answers 304 to a client that has it, until the index changes', async (t) => {
  const s = await serve();
  t.teardown(s.close);
  const res = await s.get('/openapi/v3');
  const body = await res.text();
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/json');
  t.is(res.headers.get('etag'), `"${sha512(body)}"`);
  const lastModified = res.headers.get('last-modified')!;
  t.regex(lastModified, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);

  const byEtag = await s.get('/openapi/v3', { 'If-None-Match': res.headers.get('etag')! });
  t.is(byEtag.status, 304);
  t.is(await byEtag.text(), '');
  t.is(byEtag.headers.get('etag'), res.headers.get('etag'));
  t.is((await s.get('/openapi/v3', { 'If-Modified-Since': lastModified })).status, 304);
  // If-None-Match decides when both are sent, as in Go's http.ServeContent
  t.is((await s.get('/openapi/v3', { 'If-None-Match': '"other"', 'If-Modified-Since': lastModified })).status, 200);
  t.is((await s.get('/openapi/v3', { 'If-Modified-Since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).status, 200);

  s.registry.set({ ...widgets, versions: [{ ...widgets.versions[0]!, schema: { type: 'object', properties: { spec: { type: 'object' } } } }] });
  const changed = await s.get('/openapi/v3', { 'If-None-Match': res.headers.get('etag')! });
  t.is(changed.status, 200);
  t.not(changed.headers.get('etag'), res.headers.get('etag'));
});

test('a stale hash redirects to the current document; a changed registry changes the hash', async (t) => {
  const s = await serve();
  t.teardown(s.close);
  const before = (await (await s.get('/openapi/v3')).json()) as { paths: Record<string, { serverRelativeURL: string }> };
  s.registry.set({ ...widgets, versions: [{ ...widgets.versions[0]!, schema: { type: 'object', properties: { spec: { type: 'object' } } } }] });
  const after = (await (await s.get('/openapi/v3')).json()) as { paths: Record<string, { serverRelativeURL: string }> };
  t.not(after.paths['apis/example.com/v1']!.serverRelativeURL, before.paths['apis/example.com/v1']!.serverRelativeURL);
  t.is(after.paths['api/v1']!.serverRelativeURL, before.paths['api/v1']!.serverRelativeURL);

  const stale = await s.get(before.paths['apis/example.com/v1']!.serverRelativeURL);
  t.is(stale.status, 301);
  t.is(stale.headers.get('location'), after.paths['apis/example.com/v1']!.serverRelativeURL);
});

test('unknown group-versions are 404 and an Accept of neither JSON nor protobuf is 406, both without a body', async (t) => {
  const s = await serve();
  t.teardown(s.close);
  const missing = await s.get('/openapi/v3/apis/nope.example.com/v1');
  t.is(missing.status, 404);
  t.is(await missing.text(), '');
  const yaml = await s.get('/openapi/v3/api/v1', { Accept: 'application/yaml' });
  t.is(yaml.status, 406);
  t.is(await yaml.text(), '');
  const fallback = await s.get('/openapi/v3/api/v1', { Accept: 'application/yaml, application/json;q=0.9' });
  t.is(fallback.status, 200);
  t.is(fallback.headers.get('content-type'), 'application/json');
  const protobuf = await s.get('/openapi/v3/api/v1', { Accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' });
  t.is(protobuf.status, 200);
  t.is(protobuf.headers.get('content-type'), 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf');
});

test('the group-version document has kube-shaped paths, operations and kind schemas', async (t) => {
  const s = await serve();
  t.teardown(s.close);
  const doc = (await (await s.get('/openapi/v3/apis/example.com/v1')).json()) as Doc & { openapi: string; info: object };
  t.is(doc.openapi, '3.0.0');
  t.deepEqual(doc.info, { title: 'Kubernetes', version: defaultServerConfig.version.gitVersion });
  t.deepEqual(Object.keys(doc.paths), [
    '/apis/example.com/v1/namespaces/{namespace}/widgets',
    '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}',
    '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status',
    '/apis/example.com/v1/watch/namespaces/{namespace}/widgets',
    '/apis/example.com/v1/watch/namespaces/{namespace}/widgets/{name}',
    '/apis/example.com/v1/watch/widgets',
    '/apis/example.com/v1/widgets',
  ]);
  const item = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}']!;
  t.deepEqual(
    (item.parameters as unknown as { name: string }[]).map((p) => p.name),
    ['name', 'namespace', 'pretty'],
  );
  t.deepEqual(item.parameters![0], { name: 'name', in: 'path', description: 'name of the Widget', required: true, schema: { type: 'string', uniqueItems: true } } as never);
  const ops = Object.fromEntries(Object.entries(doc.paths).flatMap(([path, p]) => Object.entries(p).filter(([m]) => m !== 'parameters').map(([m, o]) => [`${m} ${path}`, o])));
  t.deepEqual(
    Object.values(ops).map((o) => [o.operationId, o['x-kubernetes-action']]),
    [
      ['listExampleComV1NamespacedWidget', 'list'],
      ['createExampleComV1NamespacedWidget', 'post'],
      ['deleteExampleComV1CollectionNamespacedWidget', 'deletecollection'],
      ['readExampleComV1NamespacedWidget', 'get'],
      ['replaceExampleComV1NamespacedWidget', 'put'],
      ['patchExampleComV1NamespacedWidget', 'patch'],
      ['deleteExampleComV1NamespacedWidget', 'delete'],
      ['readExampleComV1NamespacedWidgetStatus', 'get'],
      ['replaceExampleComV1NamespacedWidgetStatus', 'put'],
      ['patchExampleComV1NamespacedWidgetStatus', 'patch'],
      ['watchExampleComV1NamespacedWidgetList', 'watchlist'],
      ['watchExampleComV1NamespacedWidget', 'watch'],
      ['watchExampleComV1WidgetListForAllNamespaces', 'watchlist'],
      ['listExampleComV1WidgetForAllNamespaces', 'list'],
    ],
  );
  const patch = ops['patch /apis/example.com/v1/namespaces/{namespace}/widgets/{name}']!;
  t.deepEqual(patch['x-kubernetes-group-version-kind'], widgetGvk);
  t.deepEqual(patch.tags, ['exampleCom_v1']);
  t.deepEqual(patch.parameters!.map((p) => `${p.in}:${p.name}`), ['query:dryRun', 'query:fieldManager', 'query:fieldValidation', 'query:force']);
  t.deepEqual(Object.keys((patch.requestBody as { content: object }).content), [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/apply-patch+yaml',
  ]);
  t.deepEqual(patch.responses, {
    200: { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/com.example.v1.Widget' } }, 'application/yaml': { schema: { $ref: '#/components/schemas/com.example.v1.Widget' } } } },
    201: { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/com.example.v1.Widget' } }, 'application/yaml': { schema: { $ref: '#/components/schemas/com.example.v1.Widget' } } } },
    401: { description: 'Unauthorized' },
  } as never);

  const widget = doc.components.schemas['com.example.v1.Widget']!;
  t.is(widget.description, 'A widget.');
  t.deepEqual(widget['x-kubernetes-group-version-kind'], [widgetGvk]);
  const props = widget.properties as Record<string, Record<string, unknown>>;
  t.deepEqual(Object.keys(props).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
  t.like(props.metadata!, objectMetaRef);
  t.deepEqual(props.spec, { type: 'object', properties: { replicas: { type: 'integer', description: 'How many.' } } });
  const list = doc.components.schemas['com.example.v1.WidgetList']!;
  t.deepEqual(list['x-kubernetes-group-version-kind'], [{ ...widgetGvk, kind: 'WidgetList' }]);
  t.deepEqual(list.required, ['items']);
  const objectMeta = doc.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!;
  t.truthy((objectMeta.properties as Record<string, { description?: string }>).name?.description);
  for (const ref of refs(doc)) t.truthy(doc.components.schemas[ref.replace('#/components/schemas/', '')], ref);
});

test('kubectl finds fieldValidation on every PATCH operation of each kind (server-side field validation)', async (t) => {
  const s = await serve();
  t.teardown(s.close);
  for (const gv of ['api/v1', 'apis/example.com/v1']) {
    const doc = (await (await s.get(`/openapi/v3/${gv}`)).json()) as Doc;
    const patches = Object.values(doc.paths).flatMap((p) => (p.patch ? [p.patch] : []));
    t.true(patches.length >= 2, gv);
    for (const op of patches) t.true(op.parameters!.some((p) => p.name === 'fieldValidation' && p.in === 'query'), `${gv} ${op.operationId}`);
  }
});

test('core kinds are named after their Go package and also take strategic merge patches', async (t) => {
  const s = await serve();
  t.teardown(s.close);
  const doc = (await (await s.get('/openapi/v3/api/v1')).json()) as Doc;
  const ns = doc.components.schemas['io.k8s.api.core.v1.Namespace']!;
  t.deepEqual(ns['x-kubernetes-group-version-kind'], [{ group: '', kind: 'Namespace', version: 'v1' }]);
  t.true(ns['x-kubernetes-preserve-unknown-fields'] as boolean);
  t.truthy(doc.components.schemas['io.k8s.api.core.v1.NamespaceList']);
  const patch = doc.paths['/api/v1/namespaces/{name}']!.patch!;
  t.is(patch.operationId, 'patchCoreV1Namespace');
  t.deepEqual(Object.keys((patch.requestBody as { content: object }).content), [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
  ]);
  t.deepEqual(doc.paths['/api/v1/namespaces']!.get!.operationId, 'listCoreV1Namespace');
});

test('a scale subresource is published with the autoscaling/v1 Scale kind', async (t) => {
  const scaled: ResourceType = {
    ...widgets,
    versions: [{ ...widgets.versions[0]!, subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } }],
  };
  const s = await serve([scaled]);
  t.teardown(s.close);
  const doc = (await (await s.get('/openapi/v3/apis/example.com/v1')).json()) as Doc;
  const scale = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale']!;
  t.is(scale.get!.operationId, 'readExampleComV1NamespacedWidgetScale');
  // kube names the path's object after the subresource's kind, the operations after the resource's.
  t.deepEqual((scale.parameters as unknown as { name: string }[]).find((p) => p.name === 'name'), { name: 'name', in: 'path', description: 'name of the Scale', required: true, schema: { type: 'string', uniqueItems: true } } as never);
  t.is(scale.get!.description, 'read scale of the specified Widget');
  t.deepEqual(scale.put!['x-kubernetes-group-version-kind'], { group: 'autoscaling', kind: 'Scale', version: 'v1' });
  t.deepEqual(doc.components.schemas['io.k8s.api.autoscaling.v1.Scale']!['x-kubernetes-group-version-kind'], [{ group: 'autoscaling', kind: 'Scale', version: 'v1' }]);
});

test('/openapi/v2 is Swagger 2.0 of everything with the same definition names', async (t) => {
  const s = await serve();
  t.teardown(s.close);
  const res = await s.get('/openapi/v2', { Accept: 'application/json' });
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/json');
  t.is(res.headers.get('vary'), 'Accept');
  const text = await res.text();
  t.is(res.headers.get('etag'), `"${sha512(text)}"`);
  const doc = JSON.parse(text) as { swagger: string; paths: Doc['paths']; definitions: Record<string, Record<string, unknown>> };
  t.is(doc.swagger, '2.0');
  t.truthy(doc.paths['/api/v1/namespaces']);
  t.truthy(doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets']);
  t.like(doc.definitions['com.example.v1.Widget']!, { type: 'object', 'x-kubernetes-group-version-kind': [widgetGvk] });
  const metadata = (doc.definitions['com.example.v1.Widget']!.properties as Record<string, object>).metadata;
  t.deepEqual(metadata, {
    $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  });
  const create = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets']!.post!;
  t.deepEqual((create.parameters as object[])[0], { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/com.example.v1.Widget' } });
  t.deepEqual(create.consumes, ['*/*']);
  for (const ref of refs(doc)) t.truthy(doc.definitions[ref.replace('#/definitions/', '')], ref);

  t.is((await s.get('/openapi/v2', { 'If-None-Match': res.headers.get('etag')! })).status, 304);
  const protobuf = await s.get('/openapi/v2', { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
  t.is(protobuf.status, 200);
  t.is(protobuf.headers.get('content-type'), 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
  t.is((await s.get('/openapi/v2', { Accept: 'text/html' })).status, 406);
});
