/** core/v1 ConfigMaps over HTTP: kube's decoding, validation texts, size limit, immutability, printer and selectors. */
import test from 'ava';
import { createNamespace, expectStatus, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

const path = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
const configMap = (name: string, fields: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...fields });

test('a ConfigMap is stored as kube writes it: no generation, canonical base64, no empty maps, unknown fields dropped', async (t) => {
  const ns = await createNamespace(server, 'cm');
  // "hello" with a line break inside and non-zero padding bits (Go decodes both and re-encodes canonically).
  const created = await server.request('POST', path(ns), { body: configMap('app', { data: { 'app.conf': 'x=1' }, binaryData: { raw: 'aGVs\nbG9=' }, bogus: 1 }) });
  t.is(created.status, 201, created.text);
  t.deepEqual(created.body.binaryData, { raw: 'aGVsbG8=' });
  t.deepEqual(created.body.data, { 'app.conf': 'x=1' });
  t.false('bogus' in created.body);
  t.false('generation' in created.body.metadata);
  const empty = await server.request('POST', path(ns), { body: configMap('empty', { data: {}, binaryData: {} }) });
  t.is(empty.status, 201, empty.text);
  t.false('data' in empty.body);
  t.false('binaryData' in empty.body);
  const got = await server.request('GET', path(ns, 'app'));
  t.deepEqual(got.body.binaryData, { raw: 'aGVsbG8=' });
});

test('kubectl get columns: NAME, DATA (keys of data and binaryData), AGE', async (t) => {
  const ns = await createNamespace(server, 'cm');
  await server.request('POST', path(ns), { body: configMap('three', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }) });
  const res = await server.request('GET', path(ns), { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  t.is(res.status, 200, res.text);
  t.deepEqual(
    res.body.columnDefinitions.map((c: { name: string }) => c.name),
    ['Name', 'Data', 'Age'],
  );
  t.deepEqual(res.body.rows[0].cells.slice(0, 2), ['three', 3]);
});

test('invalid keys and a key in both data and binaryData: 422 with kube\'s texts, nothing stored', async (t) => {
  const ns = await createNamespace(server, 'cm');
  const res = await server.request('POST', path(ns), { body: configMap('bad', { data: { 'a b': '1', '..x': '2', k: 'v' }, binaryData: { k: 'AA==', '.': 'AA==' } }) });
  const keyFormat =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
  expectStatus(t, res, {
    code: 422,
    reason: 'Invalid',
    message:
      'ConfigMap "bad" is invalid: [' +
      `data[..x]: Invalid value: "..x": must not start with '..', ` +
      `data[a b]: Invalid value: "a b": ${keyFormat}, ` +
      'data[k]: Invalid value: "k": duplicate of key present in binaryData, ' +
      `binaryData[.]: Invalid value: ".": must not be '.']`,
  });
  t.deepEqual(
    res.body.details.causes.map((c: { field: string }) => c.field),
    ['data[..x]', 'data[a b]', 'data[k]', 'binaryData[.]'],
  );
  t.is((await server.request('GET', path(ns, 'bad'))).status, 404);
});

test('values of the wrong type or not base64: kube\'s 400', async (t) => {
  const ns = await createNamespace(server, 'cm');
  const number = await server.request('POST', path(ns), { body: configMap('n', { data: { a: 1 } }) });
  expectStatus(t, number, {
    code: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
  });
  const list = await server.request('POST', path(ns), { body: configMap('l', { binaryData: ['AA=='] }) });
  expectStatus(t, list, {
    code: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.binaryData of type map[string][]uint8',
  });
  const base64 = await server.request('POST', path(ns), { body: configMap('b', { binaryData: { a: 'not base64!' } }) });
  expectStatus(t, base64, { code: 400, reason: 'BadRequest', message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 3' });
  const immutable = await server.request('POST', path(ns), { body: configMap('i', { immutable: 'yes' }) });
  expectStatus(t, immutable, {
    code: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool',
  });
});

test('more than 1 MiB of values (data in UTF-8 bytes plus decoded binaryData) is a 422 naming the whole object', async (t) => {
  const ns = await createNamespace(server, 'cm');
  const message = 'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes';
  const twoMiB = await server.request('POST', path(ns), { body: configMap('big', { data: { a: 'x'.repeat(1024 * 1024), b: 'y'.repeat(1024 * 1024) } }) });
  expectStatus(t, twoMiB, { code: 422, reason: 'Invalid', message });
  t.deepEqual(twoMiB.body.details.causes, [{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 1048576 bytes', field: '[]' }]);
  // 1 MiB - 2 bytes of data (é is two bytes in UTF-8) and 3 bytes of binaryData (4 characters of base64).
  const mixed = await server.request('POST', path(ns), { body: configMap('big', { data: { a: 'é'.repeat(512 * 1024 - 1) }, binaryData: { b: 'AAAA' } }) });
  expectStatus(t, mixed, { code: 422, reason: 'Invalid', message });
  t.is((await server.request('GET', path(ns, 'big'))).status, 404);
  const exactly = await server.request('POST', path(ns), { body: configMap('big', { data: { a: 'é'.repeat(512 * 1024 - 2) }, binaryData: { b: 'AAAAAA==' } }) });
  t.is(exactly.status, 201, exactly.text.slice(0, 300));
});

test('an immutable ConfigMap keeps its data, binaryData and immutable; its metadata still changes', async (t) => {
  const ns = await createNamespace(server, 'cm');
  const created = await server.request('POST', path(ns), { body: configMap('frozen', { immutable: true, data: { a: '1' }, binaryData: { b: 'AA==' } }) });
  t.is(created.status, 201, created.text);
  const changed = await server.request('PUT', path(ns, 'frozen'), { body: configMap('frozen', { immutable: false, data: { a: '2' } }) });
  expectStatus(t, changed, {
    code: 422,
    reason: 'Invalid',
    message:
      'ConfigMap "frozen" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, ' +
      'data: Forbidden: field is immutable when `immutable` is set, binaryData: Forbidden: field is immutable when `immutable` is set]',
  });
  const dropped = await server.request('PATCH', path(ns, 'frozen'), { body: { immutable: null }, contentType: 'application/merge-patch+json' });
  expectStatus(t, dropped, { code: 422, reason: 'Invalid', message: 'ConfigMap "frozen" is invalid: immutable: Forbidden: field is immutable when `immutable` is set' });
  const labelled = await server.request('PATCH', path(ns, 'frozen'), { body: { metadata: { labels: { a: 'b' } } }, contentType: 'application/merge-patch+json' });
  t.is(labelled.status, 200, labelled.text);
  t.deepEqual(labelled.body.data, { a: '1' });
  // The same bytes in another base64 spelling are no change.
  const same = await server.request('PATCH', path(ns, 'frozen'), { body: { binaryData: { b: 'AB==' } }, contentType: 'application/merge-patch+json' });
  t.is(same.status, 200, same.text);
  t.is((await server.request('DELETE', path(ns, 'frozen'))).status, 200);
});

test('a mutable ConfigMap can become immutable (a PUT without metadata.namespace gets the URL\'s, as in kube)', async (t) => {
  const ns = await createNamespace(server, 'cm');
  await server.request('POST', path(ns), { body: configMap('soon', { data: { a: '1' } }) });
  const frozen = await server.request('PUT', path(ns, 'soon'), { body: configMap('soon', { data: { a: '2' }, immutable: true }) });
  t.is(frozen.status, 200, frozen.text);
  t.is(frozen.body.immutable, true);
  t.deepEqual(frozen.body.data, { a: '2' });
});

test('field selectors: metadata.name and metadata.namespace only', async (t) => {
  const ns = await createNamespace(server, 'cm');
  await server.request('POST', path(ns), { body: configMap('one') });
  await server.request('POST', path(ns), { body: configMap('two') });
  const byName = await server.request('GET', `${path(ns)}?fieldSelector=metadata.name%3Dtwo`);
  t.deepEqual(
    byName.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
    ['two'],
  );
  const byType = await server.request('GET', `${path(ns)}?fieldSelector=type%3DOpaque`);
  expectStatus(t, byType, { code: 400, reason: 'BadRequest', message: 'field label not supported: type' });
});

test('discovery lists configmaps (cm) and secrets as kube-apiserver does', async (t) => {
  const res = await server.request('GET', '/api/v1');
  const byName = (name: string) => res.body.resources.find((r: { name: string }) => r.name === name);
  const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  t.deepEqual(byName('configmaps'), {
    name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs, shortNames: ['cm'], storageVersionHash: 'qFsyl6wFWjQ=',
  });
  t.deepEqual(byName('secrets'), { name: 'secrets', singularName: 'secret', namespaced: true, kind: 'Secret', verbs, storageVersionHash: 'S6u1pOWzb84=' });
});
