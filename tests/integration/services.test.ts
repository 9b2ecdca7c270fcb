/** core/v1 Services over HTTP: kube's defaults, cluster IP and node port allocation, validation texts. */
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNamespace, expectStatus, startTestServer, useTestServer, type TestServer } from '../helpers/test-server.js';
import { sendBinary } from '../helpers/binary-request.js';
import { independentCbor } from '../helpers/independent-cbor.js';

const server = useTestServer();

const svcPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/services${name ? `/${name}` : ''}`;
const service = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });

async function create(s: TestServer, ns: string, name: string, spec: Record<string, unknown>) {
  return s.request('POST', svcPath(ns), { body: service(name, spec) });
}

/*
 * Tests share one server: the IPs they ask for are from the static band (10.0.0.1-10.0.0.16), which dynamic
 * allocation only uses once the rest of the range is taken (kube's KEP-3070), so they never meet an allocated one.
 */

/** An address of kube's default range 10.0.0.0/24, as dynamic allocation hands them out (not network, not broadcast). */
function inDefaultRange(ip: string): boolean {
  const m = /^10\.0\.0\.(\d+)$/.exec(ip);
  return m !== null && Number(m[1]) >= 1 && Number(m[1]) <= 254;
}

test('a ClusterIP Service gets an IP of the range and kube\'s defaults, visible on create', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const res = await create(server, ns, 'web', { selector: { app: 'web' }, ports: [{ port: 80 }] });
  t.is(res.status, 201, res.text);
  const spec = res.body.spec;
  t.true(inDefaultRange(spec.clusterIP), spec.clusterIP);
  t.deepEqual(spec.clusterIPs, [spec.clusterIP]);
  t.like(spec, { type: 'ClusterIP', sessionAffinity: 'None', ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster' });
  t.deepEqual(spec.ipFamilies, ['IPv4']);
  t.deepEqual(spec.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
  t.deepEqual(res.body.status, { loadBalancer: {} });
  t.false('generation' in res.body.metadata, 'kube sets no generation on Services');
  const got = await server.request('GET', svcPath(ns, 'web'));
  t.is(got.body.spec.clusterIP, spec.clusterIP);
});

test('a requested free IP is honoured; taken or out of range it is refused with kube\'s texts', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const first = await create(server, ns, 'first', { clusterIP: '10.0.0.10', ports: [{ port: 80 }] });
  t.is(first.status, 201, first.text);
  t.deepEqual(first.body.spec.clusterIPs, ['10.0.0.10']);
  const taken = await create(server, ns, 'second', { clusterIP: '10.0.0.10', ports: [{ port: 80 }] });
  expectStatus(t, taken, {
    code: 422,
    reason: 'Invalid',
    message: 'Service "second" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.10"]: failed to allocate IP 10.0.0.10: provided IP is already allocated',
  });
  const outside = await create(server, ns, 'third', { clusterIP: '10.9.0.1', ports: [{ port: 80 }] });
  expectStatus(t, outside, {
    code: 422,
    reason: 'Invalid',
    message: 'Service "third" is invalid: spec.clusterIPs: Invalid value: ["10.9.0.1"]: failed to allocate IP 10.9.0.1: provided IP 10.9.0.1 is not in the valid range',
  });
  t.is((await server.request('GET', svcPath(ns, 'second'))).status, 404, 'nothing stored');
});

test('a deleted Service gives its IP and node port back', async (t) => {
  const ns = await createNamespace(server, 'svc');
  t.is((await create(server, ns, 'old', { type: 'NodePort', clusterIP: '10.0.0.11', ports: [{ port: 80, nodePort: 30011 }] })).status, 201);
  t.is((await server.request('DELETE', svcPath(ns, 'old'))).status, 200);
  const again = await create(server, ns, 'new', { type: 'NodePort', clusterIP: '10.0.0.11', ports: [{ port: 80, nodePort: 30011 }] });
  t.is(again.status, 201, again.text);
  t.is(again.body.spec.ports[0].nodePort, 30011);
});

test('deleting a namespace deletes its Services and gives their IPs back', async (t) => {
  const ns = await createNamespace(server, 'svc');
  t.is((await create(server, ns, 'gone', { clusterIP: '10.0.0.4', ports: [{ port: 80 }] })).status, 201);
  t.is((await server.request('DELETE', `/api/v1/namespaces/${ns}`)).status, 200);
  const other = await createNamespace(server, 'svc');
  await server.waitFor(async () => (await create(server, other, 'reused', { clusterIP: '10.0.0.4', ports: [{ port: 80 }] })).status === 201, 15_000, 'the IP to be free');
  t.pass();
});

test('a create refused by validation gives back what it took', async (t) => {
  const ns = await createNamespace(server, 'svc');
  // allocation runs before validation (kube's BeginCreate): the bad selector fails the write after 10.0.0.12 was taken
  const bad = await create(server, ns, 'bad', { clusterIP: '10.0.0.12', selector: { 'a b': 'x' }, ports: [{ port: 80 }] });
  t.is(bad.status, 422, bad.text);
  const good = await create(server, ns, 'good', { clusterIP: '10.0.0.12', ports: [{ port: 80 }] });
  t.is(good.status, 201, good.text);
});

test('dry-run shows an allocated IP and keeps nothing', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const dry = await server.request('POST', `${svcPath(ns)}?dryRun=All`, { body: service('dry', { clusterIP: '10.0.0.13', ports: [{ port: 80 }] }) });
  t.is(dry.status, 201, dry.text);
  t.is(dry.body.spec.clusterIP, '10.0.0.13');
  const dynamic = await server.request('POST', `${svcPath(ns)}?dryRun=All`, { body: service('dry', { ports: [{ port: 80 }] }) });
  t.true(inDefaultRange(dynamic.body.spec.clusterIP), dynamic.text);
  const real = await create(server, ns, 'real', { clusterIP: '10.0.0.13', ports: [{ port: 80 }] });
  t.is(real.status, 201, real.text);
});

test('concurrent creates never share an IP; of two asking for one IP exactly one gets it', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const many = await Promise.all(Array.from({ length: 30 }, (_, i) => create(server, ns, `many-${i}`, { ports: [{ port: 80 }] })));
  t.true(many.every((r) => r.status === 201), many.map((r) => r.status).join(','));
  const ips = many.map((r) => r.body.spec.clusterIP);
  t.is(new Set(ips).size, ips.length);
  const racing = await Promise.all([0, 1, 2].map((i) => create(server, ns, `race-${i}`, { clusterIP: '10.0.0.14', ports: [{ port: 80 }] })));
  t.deepEqual(racing.map((r) => r.status).sort(), [201, 422, 422]);
});

test('NodePort: allocated from 30000-32767, a requested port honoured, taken or out of range refused', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const auto = await create(server, ns, 'auto', { type: 'NodePort', ports: [{ port: 80, targetPort: 8080 }] });
  t.is(auto.status, 201, auto.text);
  const port = auto.body.spec.ports[0];
  t.true(port.nodePort >= 30000 && port.nodePort <= 32767, String(port.nodePort));
  t.is(auto.body.spec.externalTrafficPolicy, 'Cluster');
  const asked = await create(server, ns, 'asked', { type: 'NodePort', ports: [{ port: 80, nodePort: 30020 }] });
  t.is(asked.body.spec.ports[0].nodePort, 30020);
  const taken = await create(server, ns, 'taken', { type: 'NodePort', ports: [{ port: 80, nodePort: 30020 }] });
  expectStatus(t, taken, {
    code: 422,
    reason: 'Invalid',
    message: 'Service "taken" is invalid: spec.ports[0].nodePort: Invalid value: 30020: provided port is already allocated',
  });
  const outside = await create(server, ns, 'outside', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] });
  expectStatus(t, outside, {
    code: 422,
    reason: 'Invalid',
    message: 'Service "outside" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
  });
});

test('changing the type: NodePort to ClusterIP frees the node port, ExternalName frees the IP', async (t) => {
  const ns = await createNamespace(server, 'svc');
  t.is((await create(server, ns, 'np', { type: 'NodePort', clusterIP: '10.0.0.15', ports: [{ port: 80, nodePort: 30015 }] })).status, 201);
  const patch = (name: string, body: unknown) => server.request('PATCH', svcPath(ns, name), { body, contentType: 'application/merge-patch+json' });
  const clusterIP = await patch('np', { spec: { type: 'ClusterIP' } });
  t.is(clusterIP.status, 200, clusterIP.text);
  t.false('nodePort' in clusterIP.body.spec.ports[0]);
  t.false('externalTrafficPolicy' in clusterIP.body.spec);
  await server.waitFor(async () => (await create(server, ns, 'np2', { type: 'NodePort', ports: [{ port: 80, nodePort: 30015 }] })).status === 201);
  const external = await patch('np', { spec: { type: 'ExternalName', externalName: 'db.example.com' } });
  t.is(external.status, 200, external.text);
  t.like(external.body.spec, { type: 'ExternalName', externalName: 'db.example.com' });
  t.false('clusterIP' in external.body.spec);
  t.false('ipFamilies' in external.body.spec);
  await server.waitFor(async () => (await create(server, ns, 'ip2', { clusterIP: '10.0.0.15', ports: [{ port: 80 }] })).status === 201);
});

test('a PUT that leaves the cluster IP and node port out keeps them (kube\'s patchAllocatedValues)', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const created = await create(server, ns, 'keep', { type: 'NodePort', ports: [{ name: 'http', port: 80 }] });
  const { clusterIP, ports } = created.body.spec;
  const put = await server.request('PUT', svcPath(ns, 'keep'), { body: { ...service('keep', { type: 'NodePort', ports: [{ name: 'http', port: 80 }] }), metadata: { name: 'keep', namespace: ns } } });
  t.is(put.status, 200, put.text);
  t.is(put.body.spec.clusterIP, clusterIP);
  t.is(put.body.spec.ports[0].nodePort, ports[0].nodePort);
  const changed = await server.request('PATCH', svcPath(ns, 'keep'), { body: { spec: { clusterIP: '10.0.0.16', clusterIPs: ['10.0.0.16'] } }, contentType: 'application/merge-patch+json' });
  expectStatus(t, changed, { code: 422, reason: 'Invalid', message: `Service "keep" is invalid: spec.clusterIPs[0]: Invalid value: ["10.0.0.16"]: may not change once set` });
});

test('headless and ExternalName Services get no IP; a headless one without selector asks for both families as kube', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const headless = await create(server, ns, 'headless', { clusterIP: 'None', selector: { app: 'x' }, ports: [{ port: 80 }] });
  t.is(headless.status, 201, headless.text);
  t.like(headless.body.spec, { clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
  const selectorless = await create(server, ns, 'selectorless', { clusterIP: 'None' });
  t.is(selectorless.status, 201, selectorless.text);
  t.like(selectorless.body.spec, { ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' });
  const external = await create(server, ns, 'ext', { type: 'ExternalName', externalName: 'api.example.com.' });
  t.is(external.status, 201, external.text);
  t.false('clusterIP' in external.body.spec);
  t.false('ipFamilyPolicy' in external.body.spec);
  t.false('internalTrafficPolicy' in external.body.spec);
});

test('validation: kube\'s texts, all causes at once, nothing stored', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const res = await create(server, ns, 'Bad', { type: 'Weird', sessionAffinity: 'Sticky', ports: [{ port: 0, protocol: 'ICMP', targetPort: 'a--b' }, { name: 'x', port: 81 }] });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(
    res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
    [
      "metadata.name: Invalid value: \"Bad\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      'spec.ports[0].name: Required value',
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[0].targetPort: Invalid value: "a--b": must not contain consecutive hyphens (-)',
      'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
      'spec.type: Unsupported value: "Weird": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ],
  );
  const noPorts = await create(server, ns, 'noports', {});
  expectStatus(t, noPorts, { code: 422, reason: 'Invalid', message: 'Service "noports" is invalid: spec.ports: Required value' });
  const badIP = await create(server, ns, 'badip', { clusterIP: '10.0.0.300', ports: [{ port: 80 }] });
  expectStatus(t, badIP, {
    code: 422,
    reason: 'Invalid',
    message: 'Service "badip" is invalid: spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
  });
  const external = await create(server, ns, 'ext', { type: 'ExternalName' });
  expectStatus(t, external, { code: 422, reason: 'Invalid', message: 'Service "ext" is invalid: spec.externalName: Required value' });
  const dual = await create(server, ns, 'dual', { ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] });
  expectStatus(t, dual, {
    code: 422,
    reason: 'Invalid',
    message: 'Service "dual" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
  });
  t.deepEqual((await server.request('GET', svcPath(ns))).body.items, []);
});

test('bad input is a 4xx: wrong types are kube\'s 400, never a 500', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const port = await create(server, ns, 'x', { ports: [{ port: 'eighty' }] });
  expectStatus(t, port, {
    code: 400,
    reason: 'BadRequest',
    message: 'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32',
  });
  for (const spec of [{ ports: 'x' }, { ports: [{ port: 80, targetPort: true }] }, { selector: ['a'] }, { clusterIPs: 'x' }, { type: 5 }]) {
    const res = await create(server, ns, 'x', spec);
    t.is(res.status, 400, `${JSON.stringify(spec)}: ${res.text}`);
  }
});

test('field selectors: metadata.name, spec.type and spec.clusterIP (kube 1.31+); others are refused', async (t) => {
  const ns = await createNamespace(server, 'svc');
  await create(server, ns, 'plain', { clusterIP: '10.0.0.2', ports: [{ port: 80 }] });
  await create(server, ns, 'exposed', { type: 'NodePort', ports: [{ port: 80 }] });
  const byType = await server.request('GET', `${svcPath(ns)}?fieldSelector=spec.type%3DNodePort`);
  t.deepEqual(byType.body.items.map((i: any) => i.metadata.name), ['exposed']);
  const byIP = await server.request('GET', `${svcPath(ns)}?fieldSelector=spec.clusterIP%3D10.0.0.2`);
  t.deepEqual(byIP.body.items.map((i: any) => i.metadata.name), ['plain']);
  const other = await server.request('GET', `${svcPath(ns)}?fieldSelector=spec.externalName%3Dx`);
  t.is(other.status, 400, other.text);
});

test('kubectl get columns: NAME, TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S), AGE and SELECTOR (wide) as kube prints them', async (t) => {
  const ns = await createNamespace(server, 'svc');
  await create(server, ns, 'lb', { type: 'LoadBalancer', clusterIP: '10.0.0.3', selector: { b: '2', a: '1' }, ports: [{ port: 443, nodePort: 30043 }] });
  await create(server, ns, 'ext', { type: 'ExternalName', externalName: 'db.example.com' });
  const table = await server.request('GET', svcPath(ns), { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  t.deepEqual(
    table.body.columnDefinitions.map((c: { name: string; priority: number }) => `${c.name}/${c.priority}`),
    ['Name/0', 'Type/0', 'Cluster-IP/0', 'External-IP/0', 'Port(s)/0', 'Age/0', 'Selector/1'],
  );
  const rows = table.body.rows.map((r: { cells: unknown[] }) => [...r.cells.slice(0, 5), r.cells[6]]);
  t.deepEqual(rows, [
    ['ext', 'ExternalName', '<none>', 'db.example.com', '<none>', '<none>'],
    ['lb', 'LoadBalancer', '10.0.0.3', '<pending>', '443:30043/TCP', 'a=1,b=2'],
  ]);
});

test('status subresource: the load balancer ingress is written there only, validated as kube', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const created = await create(server, ns, 'lb', { type: 'LoadBalancer', ports: [{ port: 80 }] });
  const body = { ...created.body, status: { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } } };
  const ignored = await server.request('PUT', svcPath(ns, 'lb'), { body });
  t.deepEqual(ignored.body.status, { loadBalancer: {} });
  const status = await server.request('PUT', `${svcPath(ns, 'lb')}/status`, { body });
  t.is(status.status, 200, status.text);
  t.deepEqual(status.body.status.loadBalancer.ingress, [{ ip: '192.0.2.10' }]);
  const bad = await server.request('PUT', `${svcPath(ns, 'lb')}/status`, { body: { ...status.body, status: { loadBalancer: { ingress: [{ ip: 'x' }] } } } });
  expectStatus(t, bad, {
    code: 422,
    reason: 'Invalid',
    message: 'Service "lb" is invalid: status.loadBalancer.ingress[0].ip: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
  });
});

test('Services in CBOR: a body written by another encoder is decoded, allocated and answered in CBOR', async (t) => {
  const ns = await createNamespace(server, 'svc');
  const cbor = 'application/cbor';
  const body = independentCbor.encode(service('cbor', { clusterIP: '10.0.0.5', ports: [{ port: 80 }] }));
  const created = await sendBinary(server, 'POST', svcPath(ns), { body, contentType: cbor, accept: 'application/json' });
  t.is(created.status, 201, created.bytes.toString());
  t.is(JSON.parse(created.bytes.toString()).spec.clusterIP, '10.0.0.5');
  const got = await sendBinary(server, 'GET', svcPath(ns, 'cbor'), { accept: cbor });
  t.is(got.headers['content-type'], cbor);
  // kube's CBOR writes strings, keys too, as byte strings
  const field = (map: unknown, key: string) => [...(map as Map<Buffer, unknown>)].find(([k]) => String(k) === key)?.[1];
  const spec = field(independentCbor.decode(got.bytes), 'spec');
  t.deepEqual([String(field(spec, 'clusterIP')), String(field(spec, 'type'))], ['10.0.0.5', 'ClusterIP']);
});

test('a restart finds the allocations again in the stored Services', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'kapi-svc-'));
  const first = await startTestServer({ dataDir });
  let second: TestServer | undefined;
  try {
    t.is((await create(first, 'default', 'kept', { type: 'NodePort', clusterIP: '10.0.0.20', ports: [{ port: 80, nodePort: 30200 }] })).status, 201);
    await first.close();
    second = await startTestServer({ dataDir });
    const ip = await create(second, 'default', 'again', { clusterIP: '10.0.0.20', ports: [{ port: 80 }] });
    t.is(ip.status, 422, ip.text);
    t.regex(ip.body.message, /provided IP is already allocated/);
    const port = await create(second, 'default', 'again', { type: 'NodePort', ports: [{ port: 80, nodePort: 30200 }] });
    t.is(port.status, 422, port.text);
    t.regex(port.body.message, /provided port is already allocated/);
  } finally {
    await second?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
