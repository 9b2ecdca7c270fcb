// A resource served from its own RestStorage, in OpenAPI v2 (/openapi/v2) and v3 (/openapi/v3/apis/GROUP/VERSION) over
// HTTP: each subresource served by a storage of its own is published at its path with the operations the storage
// implements (named as kube names them), and with its kind's definition: the storage's schema, an object keeping any
// fields when it has none, or the resource's own kind for a subresource without a kind of its own.
import test from 'ava';
import { errors, resourceModule, type RestStorage } from '../../index.js';
import { useTestServer } from '../helpers/test-server.js';

const group = 'openapi.example.com';
const item = `/apis/${group}/v1/namespaces/{namespace}/appliances/{name}`;
const gvk = (kind: string) => ({ group, kind, version: 'v1' });
const missing = (name: string) => errors.notFound({ group, resource: 'appliances', name });

// The storages are never called: only what they implement matters here.
const appliances: RestStorage = {
  get: async (_ctx, name) => Promise.reject(missing(name)),
  list: async () => ({ items: [] }),
  create: async (_ctx, object) => object,
  update: async (_ctx, name) => Promise.reject(missing(name)),
};
const measurementSchema = {
  type: 'object',
  description: 'How big an appliance is.',
  required: ['centimetres'],
  properties: { centimetres: { type: 'integer', minimum: 0, description: 'Its length.' } },
};
const subresources: Record<string, RestStorage> = {
  // A kind of its own with a schema, read and written: GET, PUT and PATCH.
  size: { kind: { group, version: 'v1', kind: 'Measurement' }, schema: measurementSchema, get: appliances.get, update: appliances.update },
  // A kind of its own without a schema, created: POST, as pods/eviction.
  eviction: { kind: { group, version: 'v1', kind: 'ApplianceEviction' }, create: async (_ctx, object) => object },
  // No kind of its own: the resource's kind, read only.
  mirror: { get: appliances.get },
};
const applianceSchema = { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' } } } } };
const modules = [resourceModule({ group, versions: ['v1'], kind: 'Appliance', plural: 'appliances', scope: 'Namespaced', schema: applianceSchema, storage: appliances, subresources })];

const server = useTestServer({ storage: 'memory', modules });

type Doc = Record<string, any>;
type Version = 'v2' | 'v3';

async function documentOf(version: Version): Promise<Doc> {
  const res = await server.request('GET', version === 'v2' ? '/openapi/v2' : `/openapi/v3/apis/${group}/v1`);
  if (res.status !== 200) throw new Error(`${version}: ${res.status} ${res.text}`);
  return res.body as Doc;
}

/** The definitions of a document, by name, and the name a `$ref` points to. */
const definitions = (doc: Doc, version: Version): Record<string, Doc> => (version === 'v2' ? doc.definitions : doc.components.schemas);
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** An operation as both versions can be compared: its id, action, kind, body, response and query parameters. */
function summarize(op: Doc, version: Version) {
  const params = (op.parameters ?? []) as Doc[];
  const body = version === 'v2' ? params.find((p) => p.in === 'body')?.schema.$ref : (Object.values(op.requestBody?.content ?? {})[0] as Doc | undefined)?.schema.$ref;
  const responses = Object.fromEntries(
    Object.entries(op.responses as Record<string, Doc>).map(([code, r]) => {
      const schema = version === 'v2' ? r.schema : r.content?.['application/json']?.schema;
      return [code, schema ? refName(schema.$ref) : r.description];
    }),
  );
  return {
    operationId: op.operationId,
    action: op['x-kubernetes-action'],
    gvk: op['x-kubernetes-group-version-kind'],
    description: op.description,
    ...(body ? { body: refName(body) } : {}),
    query: params.filter((p) => p.in === 'query').map((p) => p.name),
    responses,
  };
}

/** Every ref of a document, that must name one of its definitions. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(refName(v));
      else refs(v, out);
    }
  }
  return out;
}

const measurement = `com.example.openapi.v1.Measurement`;
const eviction = `com.example.openapi.v1.ApplianceEviction`;
const appliance = `com.example.openapi.v1.Appliance`;
const writeQuery = ['dryRun', 'fieldManager', 'fieldValidation'];

for (const version of ['v2', 'v3'] as const) {
  test(`${version}: each storage subresource's path has the operations its storage implements, with kube's names`, async (t) => {
    const doc = await documentOf(version);
    const subresourcePaths = Object.keys(doc.paths).filter((p) => p.startsWith(`${item}/`));
    t.deepEqual(subresourcePaths, [`${item}/eviction`, `${item}/mirror`, `${item}/size`]);
    const ops = (path: string) => Object.fromEntries(Object.entries(doc.paths[path] as Doc).filter(([m]) => m !== 'parameters').map(([m, op]) => [m, summarize(op, version)]));

    t.deepEqual(ops(`${item}/size`), {
      get: { operationId: 'readOpenapiExampleComV1NamespacedApplianceSize', action: 'get', gvk: gvk('Measurement'), description: 'read size of the specified Appliance', query: [], responses: { 200: measurement, 401: 'Unauthorized' } },
      put: {
        operationId: 'replaceOpenapiExampleComV1NamespacedApplianceSize',
        action: 'put',
        gvk: gvk('Measurement'),
        description: 'replace size of the specified Appliance',
        body: measurement,
        query: writeQuery,
        responses: { 200: measurement, 201: measurement, 401: 'Unauthorized' },
      },
      patch: {
        operationId: 'patchOpenapiExampleComV1NamespacedApplianceSize',
        action: 'patch',
        gvk: gvk('Measurement'),
        description: 'partially update size of the specified Appliance',
        body: 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
        query: [...writeQuery, 'force'],
        responses: { 200: measurement, 201: measurement, 401: 'Unauthorized' },
      },
    });
    t.deepEqual(ops(`${item}/eviction`), {
      post: {
        operationId: 'createOpenapiExampleComV1NamespacedApplianceEviction',
        action: 'post',
        gvk: gvk('ApplianceEviction'),
        description: 'create eviction of an Appliance',
        body: eviction,
        query: [], // at the path (below)
        responses: { 200: eviction, 201: eviction, 202: eviction, 401: 'Unauthorized' },
      },
    });
    t.deepEqual(ops(`${item}/mirror`), {
      get: { operationId: 'readOpenapiExampleComV1NamespacedApplianceMirror', action: 'get', gvk: gvk('Appliance'), description: 'read mirror of the specified Appliance', query: [], responses: { 200: appliance, 401: 'Unauthorized' } },
    });

    // The path's parameters: its object named after the subresource's kind, as kube does ("name of the Scale").
    const pathParams = (path: string) => (doc.paths[path].parameters as Doc[]).map((p) => `${p.in}:${p.name}`);
    const nameOf = (path: string) => (doc.paths[path].parameters as Doc[]).find((p) => p.name === 'name')?.description;
    t.deepEqual(pathParams(`${item}/size`), ['path:name', 'path:namespace', 'query:pretty']);
    // A path's only operation has all its parameters at the path, as kube's OpenAPI builder puts them.
    t.deepEqual(pathParams(`${item}/eviction`), ['query:dryRun', 'query:fieldManager', 'query:fieldValidation', 'path:name', 'path:namespace', 'query:pretty']);
    t.is(nameOf(`${item}/size`), 'name of the Measurement');
    t.is(nameOf(`${item}/eviction`), 'name of the ApplianceEviction');
    t.is(nameOf(`${item}/mirror`), 'name of the Appliance');
    // kube's article before the kind, as for the resource's own create.
    t.is(doc.paths[item.slice(0, -'/{name}'.length)].post.description, 'create an Appliance');
  });

  test(`${version}: a subresource's own kind is defined by its schema, or keeps any fields without one`, async (t) => {
    const doc = await documentOf(version);
    const defs = definitions(doc, version);
    const size = defs[measurement]!;
    t.is(size.type, 'object');
    t.is(size.description, 'How big an appliance is.');
    t.deepEqual(size.required, ['centimetres']);
    t.deepEqual(Object.keys(size.properties).sort(), ['apiVersion', 'centimetres', 'kind', 'metadata']);
    t.deepEqual(size.properties.centimetres, { type: 'integer', minimum: 0, description: 'Its length.' });
    t.is(refName(size.properties.metadata.$ref ?? size.properties.metadata.allOf[0].$ref), 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    t.deepEqual(size['x-kubernetes-group-version-kind'], [gvk('Measurement')]);

    t.like(defs[eviction]!, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-group-version-kind': [gvk('ApplianceEviction')] });
    t.deepEqual(defs[appliance]!['x-kubernetes-group-version-kind'], [gvk('Appliance')], 'the resource keeps its own kind');
    t.deepEqual(defs[appliance]!.properties.spec, applianceSchema.properties.spec);
    for (const name of refs(doc.paths)) t.truthy(defs[name], name);
    for (const name of refs(defs)) t.truthy(defs[name], name);
  });
}
