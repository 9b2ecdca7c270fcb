// Three hundred CRDs applied together (issue #25 item 7, at a size CI can run): all are Established, discovery
// (aggregated and legacy) lists every one the same way with an ETag that holds while nothing changes, and both OpenAPI
// documents have all of them.
import test from 'ava';
import { oneVersionCrd } from '../helpers/crd.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer({ storage: 'memory' });

const crdCount = 300;
const kindsPerGroup = 10;
const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** CRD `i`: kind `Kind<i>` in group `g<i / 10>.many.example`, with a few spec properties. */
function crd(i: number) {
  const properties = Object.fromEntries(Array.from({ length: 10 }, (_, p) => [`field${p}`, { type: p % 2 ? 'string' : 'integer', description: `Field ${p}.` }]));
  return oneVersionCrd({
    group: group(i),
    plural: `kind${i}s`,
    kind: `Kind${i}`,
    schema: { type: 'object', properties: { spec: { type: 'object', properties } } },
  });
}
const group = (i: number) => `g${Math.floor(i / kindsPerGroup)}.many.example`;
const indexes = Array.from({ length: crdCount }, (_, i) => i);

test.serial.before(async () => {
  // Applied together: all POSTs in flight at once, as `kubectl apply -f` of a directory with --server-side would not
  // wait in between either.
  const created = await Promise.all(indexes.map((i) => server.request('POST', crdsPath, { body: crd(i) })));
  const failed = created.filter((res) => res.status !== 201);
  if (failed.length) throw new Error(`${failed.length} CRDs not created: ${failed[0]!.status} ${failed[0]!.text.slice(0, 300)}`);
});

test.serial('all 300 CRDs become Established', async (t) => {
  const established = await server.waitFor(
    async () => {
      const list = await server.request('GET', crdsPath);
      const names = (list.body.items as { metadata: { name: string }; status?: { conditions?: { type: string; status: string }[] } }[])
        .filter((c) => c.metadata.name.endsWith('.many.example') && c.status?.conditions?.some((cond) => cond.type === 'Established' && cond.status === 'True'))
        .map((c) => c.metadata.name);
      return names.length === crdCount ? names : undefined;
    },
    60_000,
    'all CRDs Established',
  );
  t.is(new Set(established).size, crdCount);
});

test.serial('aggregated and legacy discovery list every CRD, consistently, with an ETag that holds', async (t) => {
  const expected = indexes.map((i) => `${group(i)}/kind${i}s`).sort();
  const aggregated = await server.request('GET', '/apis', { headers: { accept: aggregatedAccept } });
  t.is(aggregated.status, 200);
  const fromAggregated = (aggregated.body.items as { metadata: { name: string }; versions: { version: string; resources: { resource: string }[] }[] }[])
    .filter((g) => g.metadata.name.endsWith('.many.example'))
    .flatMap((g) => g.versions.flatMap((v) => v.resources.map((r) => `${g.metadata.name}/${r.resource}`)))
    .sort();
  t.deepEqual(fromAggregated, expected);

  const groups = (await server.request('GET', '/apis')).body.groups as { name: string; preferredVersion: { groupVersion: string } }[];
  const many = groups.filter((g) => g.name.endsWith('.many.example'));
  t.is(many.length, crdCount / kindsPerGroup);
  const fromLegacy: string[] = [];
  for (const g of many) {
    const list = await server.request('GET', `/apis/${g.preferredVersion.groupVersion}`);
    t.is(list.status, 200);
    for (const r of list.body.resources as { name: string }[]) if (!r.name.includes('/')) fromLegacy.push(`${g.name}/${r.name}`);
  }
  t.deepEqual(fromLegacy.sort(), expected);

  const again = await server.request('GET', '/apis', { headers: { accept: aggregatedAccept } });
  t.truthy(aggregated.headers.etag);
  t.is(again.headers.etag, aggregated.headers.etag);
  t.is(again.text, aggregated.text);
});

test.serial('/openapi/v3 lists every group-version and /openapi/v2 has every CRD\'s paths', async (t) => {
  const root = await server.request('GET', '/openapi/v3');
  t.is(root.status, 200);
  const listed = Object.keys(root.body.paths as object).filter((key) => key.endsWith('.many.example/v1'));
  t.deepEqual(listed.sort(), [...new Set(indexes.map((i) => `apis/${group(i)}/v1`))].sort());

  const v2 = await server.request('GET', '/openapi/v2', { headers: { accept: 'application/json' } });
  t.is(v2.status, 200);
  const paths = v2.body.paths as Record<string, unknown>;
  const definitions = v2.body.definitions as Record<string, unknown>;
  for (const i of indexes) {
    t.truthy(paths[`/apis/${group(i)}/v1/namespaces/{namespace}/kind${i}s/{name}`], `kind${i}s`);
    t.truthy(definitions[`${group(i).split('.').reverse().join('.')}.v1.Kind${i}`], `Kind${i}`);
  }
  const cached = await server.request('GET', '/openapi/v2', { headers: { accept: 'application/json', 'if-none-match': String(v2.headers.etag) } });
  t.is(cached.status, 304);
});
