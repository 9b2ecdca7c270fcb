/** core/v1 Secrets over HTTP: stringData, types and their required keys, size limit, immutability, printer and selectors. */
import test from 'ava';
import { createNamespace, expectStatus, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

const path = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/secrets${name ? `/${name}` : ''}`;
const secret = (name: string, fields: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, ...fields });
const b64 = (s: string) => Buffer.from(s).toString('base64');

test('stringData is merged into data on create (its values win), never stored or returned; type defaults to Opaque', async (t) => {
  const ns = await createNamespace(server, 'sec');
  const created = await server.request('POST', path(ns), { body: secret('s', { data: { user: b64('old'), keep: b64('k') }, stringData: { user: 'admin', pass: 'pässword' } }) });
  t.is(created.status, 201, created.text);
  t.deepEqual(created.body.data, { user: b64('admin'), keep: b64('k'), pass: b64('pässword') });
  t.false('stringData' in created.body);
  t.is(created.body.type, 'Opaque');
  t.false('generation' in created.body.metadata);
  const got = await server.request('GET', path(ns, 's'));
  t.false('stringData' in got.body);
  t.deepEqual(got.body.data, created.body.data);
});

test('stringData in an update and in a patch is merged into the stored data', async (t) => {
  const ns = await createNamespace(server, 'sec');
  const created = await server.request('POST', path(ns), { body: secret('s', { data: { a: b64('1') } }) });
  const put = await server.request('PUT', path(ns, 's'), { body: { ...created.body, stringData: { b: '2' } } });
  t.is(put.status, 200, put.text);
  t.deepEqual(put.body.data, { a: b64('1'), b: b64('2') });
  t.false('stringData' in put.body);
  const patched = await server.request('PATCH', path(ns, 's'), { body: { stringData: { a: 'one' } }, contentType: 'application/merge-patch+json' });
  t.is(patched.status, 200, patched.text);
  t.deepEqual(patched.body.data, { a: b64('one'), b: b64('2') });
  t.false('stringData' in patched.body);
});

test('each type\'s required keys and annotation, with kube\'s texts; nothing stored', async (t) => {
  const ns = await createNamespace(server, 'sec');
  const cases: [string, Record<string, unknown>, string][] = [
    ['kubernetes.io/tls', {}, '[data[tls.crt]: Required value, data[tls.key]: Required value]'],
    ['kubernetes.io/tls', { stringData: { 'tls.crt': 'c' } }, 'data[tls.key]: Required value'],
    ['kubernetes.io/basic-auth', {}, '[data[username]: Required value, data[password]: Required value]'],
    ['kubernetes.io/ssh-auth', { data: { 'ssh-privatekey': '' } }, 'data[ssh-privatekey]: Required value'],
    ['kubernetes.io/dockercfg', {}, 'data[.dockercfg]: Required value'],
    ['kubernetes.io/dockerconfigjson', {}, 'data[.dockerconfigjson]: Required value'],
    [
      'kubernetes.io/dockerconfigjson',
      { stringData: { '.dockerconfigjson': '{"auths": ' } },
      'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input',
    ],
    [
      'kubernetes.io/dockercfg',
      { stringData: { '.dockercfg': '[1]' } },
      'data[.dockercfg]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
    ],
    ['kubernetes.io/service-account-token', {}, 'metadata.annotations[kubernetes.io/service-account.name]: Required value'],
  ];
  for (const [type, fields, causes] of cases) {
    const res = await server.request('POST', path(ns), { body: secret('typed', { type, ...fields }) });
    expectStatus(t, res, { code: 422, reason: 'Invalid', message: `Secret "typed" is invalid: ${causes}` });
    t.is((await server.request('GET', path(ns, 'typed'))).status, 404, type);
  }
});

test('secrets of each type with what the type needs are accepted; a bootstrap token or a custom type needs nothing', async (t) => {
  const ns = await createNamespace(server, 'sec');
  const valid: [string, Record<string, unknown>][] = [
    ['kubernetes.io/tls', { stringData: { 'tls.crt': '', 'tls.key': '' } }],
    ['kubernetes.io/basic-auth', { stringData: { password: '' } }],
    ['kubernetes.io/ssh-auth', { stringData: { 'ssh-privatekey': 'k' } }],
    ['kubernetes.io/dockerconfigjson', { stringData: { '.dockerconfigjson': '{"auths":{}}' } }],
    ['kubernetes.io/dockercfg', { stringData: { '.dockercfg': 'null' } }],
    ['kubernetes.io/service-account-token', { metadata: { name: 'x', annotations: { 'kubernetes.io/service-account.name': 'default' } } }],
    ['bootstrap.kubernetes.io/token', {}],
    ['example.com/custom', {}],
  ];
  for (const [i, [type, fields]] of valid.entries()) {
    const body = secret(`s${i}`, { type, ...fields });
    body.metadata.name = `s${i}`;
    const res = await server.request('POST', path(ns), { body });
    t.is(res.status, 201, `${type}: ${res.text}`);
    t.is(res.body.type, type);
  }
});

test('keys, base64 and value types are checked as kube does', async (t) => {
  const ns = await createNamespace(server, 'sec');
  const key = await server.request('POST', path(ns), { body: secret('k', { stringData: { 'a/b': 'x' } }) });
  expectStatus(t, key, {
    code: 422,
    reason: 'Invalid',
    message:
      'Secret "k" is invalid: data[a/b]: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, \'-\', \'_\' or \'.\' ' +
      "(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
  });
  const base64 = await server.request('POST', path(ns), { body: secret('b', { data: { a: 'YWJj=' } }) });
  expectStatus(t, base64, { code: 400, reason: 'BadRequest', message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 4' });
  const stringData = await server.request('POST', path(ns), { body: secret('s', { stringData: { a: true } }) });
  expectStatus(t, stringData, {
    code: 400,
    reason: 'BadRequest',
    message: 'Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal bool into Go struct field Secret.stringData of type string',
  });
  const type = await server.request('POST', path(ns), { body: secret('t', { type: 1 }) });
  expectStatus(t, type, {
    code: 400,
    reason: 'BadRequest',
    message: 'Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal number into Go struct field Secret.type of type v1.SecretType',
  });
});

test('more than 1 MiB of decoded data is a 422 on data', async (t) => {
  const ns = await createNamespace(server, 'sec');
  const res = await server.request('POST', path(ns), { body: secret('big', { data: { a: Buffer.alloc(1024 * 1024).toString('base64') }, stringData: { b: 'x' } }) });
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: 'Secret "big" is invalid: data: Too long: may not be more than 1048576 bytes' });
  t.is((await server.request('GET', path(ns, 'big'))).status, 404);
  const exactly = await server.request('POST', path(ns), { body: secret('big', { data: { a: Buffer.alloc(1024 * 1024).toString('base64') } }) });
  t.is(exactly.status, 201);
});

test('the type never changes; an immutable Secret keeps its data and immutable', async (t) => {
  const ns = await createNamespace(server, 'sec');
  await server.request('POST', path(ns), { body: secret('s', { immutable: true, stringData: { a: '1' } }) });
  const retyped = await server.request('PATCH', path(ns, 's'), { body: { type: 'example.com/other' }, contentType: 'application/merge-patch+json' });
  expectStatus(t, retyped, { code: 422, reason: 'Invalid', message: 'Secret "s" is invalid: type: Invalid value: "example.com/other": field is immutable' });
  const changed = await server.request('PATCH', path(ns, 's'), { body: { immutable: false, stringData: { a: '2' } }, contentType: 'application/merge-patch+json' });
  expectStatus(t, changed, {
    code: 422,
    reason: 'Invalid',
    message: 'Secret "s" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]',
  });
  // stringData with the stored values changes nothing.
  const same = await server.request('PATCH', path(ns, 's'), { body: { stringData: { a: '1' }, metadata: { labels: { x: 'y' } } }, contentType: 'application/merge-patch+json' });
  t.is(same.status, 200, same.text);
  t.deepEqual(same.body.metadata.labels, { x: 'y' });
});

test('kubectl get columns show the number of keys, never the data; field selector on type', async (t) => {
  const ns = await createNamespace(server, 'sec');
  await server.request('POST', path(ns), { body: secret('opaque', { stringData: { a: 'top-secret-value' } }) });
  await server.request('POST', path(ns), { body: secret('tls', { type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'c', 'tls.key': 'top-secret-value' } }) });
  const table = await server.request('GET', path(ns), { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  t.is(table.status, 200, table.text);
  t.deepEqual(
    table.body.columnDefinitions.map((c: { name: string }) => c.name),
    ['Name', 'Type', 'Data', 'Age'],
  );
  t.deepEqual(
    table.body.rows.map((r: { cells: unknown[] }) => r.cells.slice(0, 3)),
    [
      ['opaque', 'Opaque', 1],
      ['tls', 'kubernetes.io/tls', 2],
    ],
  );
  t.false(table.text.includes(b64('top-secret-value')));
  const tls = await server.request('GET', `${path(ns)}?fieldSelector=type%3Dkubernetes.io%2Ftls`);
  t.deepEqual(
    tls.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
    ['tls'],
  );
  const notOpaque = await server.request('GET', `${path(ns)}?fieldSelector=type!%3DOpaque,metadata.name!%3Dx`);
  t.is(notOpaque.body.items.length, 1);
  const data = await server.request('GET', `${path(ns)}?fieldSelector=data.a%3Dx`);
  expectStatus(t, data, { code: 400, reason: 'BadRequest', message: 'field label not supported: data.a' });
});

test('deleting a namespace deletes its ConfigMaps and Secrets', async (t) => {
  const ns = await createNamespace(server, 'sec');
  t.is((await server.request('POST', path(ns), { body: secret('s') })).status, 201);
  t.is((await server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } })).status, 201);
  t.is((await server.request('DELETE', `/api/v1/namespaces/${ns}`)).status, 200);
  await server.waitFor(async () => (await server.request('GET', `/api/v1/namespaces/${ns}`)).status === 404, 15_000, `namespace ${ns} to be gone`);
  t.is((await server.request('GET', path(ns, 's'))).status, 404);
  t.is((await server.request('GET', `/api/v1/namespaces/${ns}/configmaps/c`)).status, 404);
});
