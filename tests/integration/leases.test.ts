/** coordination.k8s.io/v1 Leases over HTTP: MicroTimes as kube stores them, validation, decoding errors, the Table. */
import test from 'ava';
import { createNamespace, expectStatus, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

const leasesPath = (ns: string, name?: string) => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases${name ? `/${name}` : ''}`;
const lease = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec });

test('a Lease is stored with its MicroTimes in UTC with six fraction digits, and no generation', async (t) => {
  const ns = await createNamespace(server, 'lease');
  const res = await server.request('POST', leasesPath(ns), {
    body: lease('leader', { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: '2026-01-02T04:05:06.123456+01:00', renewTime: '2026-01-02T03:05:07.000001Z', leaseTransitions: 0 }),
  });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.spec, { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: '2026-01-02T03:05:06.123456Z', renewTime: '2026-01-02T03:05:07.000001Z', leaseTransitions: 0 });
  t.false('generation' in res.body.metadata);
  const got = await server.request('GET', leasesPath(ns, 'leader'));
  t.is(got.body.spec.acquireTime, '2026-01-02T03:05:06.123456Z');
});

test('an update must name the resourceVersion it read (kube refuses unconditional Lease updates)', async (t) => {
  const ns = await createNamespace(server, 'lease');
  await server.request('POST', leasesPath(ns), { body: lease('l', { holderIdentity: 'a' }) });
  const res = await server.request('PUT', leasesPath(ns, 'l'), { body: lease('l', { holderIdentity: 'b' }) });
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: 'leases.coordination.k8s.io "l" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update' });
});

test("kube's validation texts: leaseDurationSeconds and leaseTransitions", async (t) => {
  const ns = await createNamespace(server, 'lease');
  const res = await server.request('POST', leasesPath(ns), { body: lease('bad', { leaseDurationSeconds: 0, leaseTransitions: -1 }) });
  expectStatus(t, res, {
    code: 422,
    reason: 'Invalid',
    message:
      'Lease.coordination.k8s.io "bad" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
  });
  t.is((await server.request('GET', leasesPath(ns, 'bad'))).status, 404);
});

test('strategy and preferredHolder are dropped (CoordinatedLeaderElection is off by default)', async (t) => {
  const ns = await createNamespace(server, 'lease');
  const res = await server.request('POST', leasesPath(ns), { body: lease('coordinated', { holderIdentity: 'a', strategy: 'Bogus', preferredHolder: 'b' }) });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.spec, { holderIdentity: 'a' });
});

test('wrong types and MicroTimes without six fraction digits are 400s, nothing stored', async (t) => {
  const ns = await createNamespace(server, 'lease');
  const cases: [Record<string, unknown>, string][] = [
    [{ leaseDurationSeconds: '15' }, 'json: cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32'],
    [{ holderIdentity: 5 }, 'json: cannot unmarshal number into Go struct field LeaseSpec.spec.holderIdentity of type string'],
    [{ renewTime: '2026-01-02T03:04:05Z' }, 'parsing time "2026-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"'],
    [{ renewTime: '2026-01-02T03:04:05.1234567Z' }, 'parsing time "2026-01-02T03:04:05.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"'],
  ];
  for (const [spec, text] of cases) {
    const res = await server.request('POST', leasesPath(ns), { body: lease('typed', spec) });
    t.is(res.status, 400, JSON.stringify(spec));
    t.true(String(res.body.message).includes(text), `${JSON.stringify(spec)}: ${res.body.message}`);
  }
  t.is((await server.request('GET', leasesPath(ns, 'typed'))).status, 404);
});

test("the Table has kube's columns: Name, Holder, Age", async (t) => {
  const ns = await createNamespace(server, 'lease');
  await server.request('POST', leasesPath(ns), { body: lease('held', { holderIdentity: 'me' }) });
  const res = await server.request('GET', leasesPath(ns), { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  t.deepEqual(
    res.body.columnDefinitions.map((c: { name: string }) => c.name),
    ['Name', 'Holder', 'Age'],
  );
  t.deepEqual(res.body.rows[0].cells.slice(0, 2), ['held', 'me']);
});
