/** core/v1 Endpoints over HTTP: what users write for a Service without selector; deprecated as in kube 1.33+. */
import test from 'ava';
import { createNamespace, expectStatus, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

const epPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/endpoints${name ? `/${name}` : ''}`;
const endpoints = (name: string, subsets: unknown[]) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets });
const deprecation = '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"';

test('Endpoints are written and read as kube: protocol defaulted, kube 1.33\'s deprecation warning on every request', async (t) => {
  const ns = await createNamespace(server, 'ep');
  const created = await server.request('POST', epPath(ns), { body: endpoints('api', [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 8443 }] }]) });
  t.is(created.status, 201, created.text);
  t.deepEqual(created.body.subsets, [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 8443, protocol: 'TCP' }] }]);
  t.is(created.headers.warning, deprecation);
  for (const path of [epPath(ns, 'api'), epPath(ns)]) {
    const res = await server.request('GET', path);
    t.is(res.status, 200);
    t.is(res.headers.warning, deprecation, path);
  }
});

test('validation: kube\'s texts for addresses and ports', async (t) => {
  const ns = await createNamespace(server, 'ep');
  const res = await server.request('POST', epPath(ns), {
    body: endpoints('bad', [{ addresses: [{ ip: '127.0.0.1' }, { ip: '10.0.0.1', hostname: 'Host_1' }], ports: [{ port: 0, protocol: 'ICMP' }, { port: 80 }] }, { ports: [{ port: 80 }] }]),
  });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(
    res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
    [
      'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      "subsets[0].addresses[1].hostname: Invalid value: \"Host_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'subsets[0].ports[0].name: Required value',
      'subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'subsets[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      'subsets[0].ports[1].name: Required value',
      'subsets[1]: Required value: must specify `addresses` or `notReadyAddresses`',
    ],
  );
  const wrongType = await server.request('POST', epPath(ns), { body: endpoints('bad', [{ addresses: [{ ip: 10 }] }]) });
  expectStatus(t, wrongType, {
    code: 400,
    reason: 'BadRequest',
    message: 'Endpoints in version "v1" cannot be handled as a Endpoints: json: cannot unmarshal number into Go struct field EndpointAddress.subsets.addresses.ip of type string',
  });
});

test('kubectl get ep: NAME, ENDPOINTS (three, then "+ N more..."), AGE', async (t) => {
  const ns = await createNamespace(server, 'ep');
  await server.request('POST', epPath(ns), {
    body: endpoints('many', [{ addresses: [{ ip: '10.1.0.1' }, { ip: '10.1.0.2' }], ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }]),
  });
  await server.request('POST', epPath(ns), { body: endpoints('empty', []) });
  await server.request('POST', epPath(ns), { body: endpoints('portless', [{ addresses: [{ ip: '10.1.0.9' }] }]) });
  const table = await server.request('GET', epPath(ns), { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  t.deepEqual(table.body.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Endpoints', 'Age']);
  t.deepEqual(
    table.body.rows.map((r: { cells: unknown[] }) => r.cells.slice(0, 2)),
    [
      ['empty', '<none>'],
      ['many', '10.1.0.1:80,10.1.0.2:80,10.1.0.1:81 + 1 more...'],
      ['portless', '10.1.0.9'],
    ],
  );
});
