/**
 * Go `[]byte` fields of built-in kinds in CBOR, as kube's serializer writes and reads them: the raw bytes as a byte
 * string in tag 22 ("expected later base64 encoding"), where JSON has base64 text. Read with node-cbor, a decoder
 * independent of kapi's; request bodies written with it too.
 */
import test from 'ava';
import cbor from 'cbor';
import { independentCbor as independent } from '../helpers/independent-cbor.js';
import { sendBinary } from '../helpers/binary-request.js';
import { createNamespace, suffix, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();
const cborType = 'application/cbor';

/** Bytes no UTF-8 text could carry, so base64 text in their place would show. */
const raw = Buffer.from([0x00, 0x01, 0xfe, 0xff, 0x80]);
const b64 = raw.toString('base64');

const secretsPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/secrets${name ? `/${name}` : ''}`;
const configMapsPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;

/** A map member of node-cbor's output by its key (kube writes keys as byte strings). */
function member(map: unknown, key: string): unknown {
  if (!(map instanceof Map)) throw new Error(`not a map: ${String(map)}`);
  for (const [k, v] of map) if ((Buffer.isBuffer(k) ? k.toString('utf8') : k) === key) return v;
  return undefined;
}

function at(value: unknown, ...keys: (string | number)[]): unknown {
  return keys.reduce<unknown>((v, k) => (typeof k === 'number' ? (v as unknown[])[k] : member(v, k)), value);
}

/** Asserts a value is kube's encoding of `bytes`: a byte string of them in tag 22. */
function assertTaggedBytes(t: import('ava').ExecutionContext, value: unknown, bytes: Buffer, what: string): void {
  t.true(value instanceof cbor.Tagged, `${what} is tagged`);
  t.is((value as cbor.Tagged).tag, 22, `${what}: tag 22`);
  t.true(Buffer.isBuffer((value as cbor.Tagged).value) && bytes.equals((value as cbor.Tagged).value as Buffer), `${what}: the raw bytes`);
}

async function getCbor(path: string) {
  const res = await sendBinary(server, 'GET', path, { accept: cborType });
  return { ...res, decoded: res.status === 200 ? independent.decode(res.bytes) : undefined };
}

test('a Secret\'s data and a ConfigMap\'s binaryData are written as raw bytes in tag 22; other strings stay byte strings', async (t) => {
  const ns = await createNamespace(server, 'cbor-bytes');
  const s = await server.request('POST', secretsPath(ns), { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { key: b64 } } });
  t.is(s.status, 201, s.text);
  const cm = await server.request('POST', configMapsPath(ns), {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { text: 'plain' }, binaryData: { bin: b64 } },
  });
  t.is(cm.status, 201, cm.text);

  const secret = await getCbor(secretsPath(ns, 's'));
  t.is(secret.status, 200);
  assertTaggedBytes(t, at(secret.decoded, 'data', 'key'), raw, 'Secret data');
  t.deepEqual(at(secret.decoded, 'type'), Buffer.from('Opaque'), 'a Go string is an untagged byte string');

  const configMap = await getCbor(configMapsPath(ns, 'cm'));
  assertTaggedBytes(t, at(configMap.decoded, 'binaryData', 'bin'), raw, 'ConfigMap binaryData');
  t.deepEqual(at(configMap.decoded, 'data', 'text'), Buffer.from('plain'));

  const list = await getCbor(configMapsPath(ns));
  t.is(list.status, 200);
  assertTaggedBytes(t, at(list.decoded, 'items', 0, 'binaryData', 'bin'), raw, 'a list item\'s binaryData');

  // A watch from no resourceVersion starts with the Secret ADDED; the stream ends after timeoutSeconds.
  const watch = await sendBinary(server, 'GET', `${secretsPath(ns)}?watch=1&timeoutSeconds=1`, { accept: cborType });
  t.is(watch.headers['content-type'], 'application/cbor-seq');
  const [added] = independent.decodeMultiple(watch.bytes);
  assertTaggedBytes(t, at(added, 'object', 'data', 'key'), raw, 'a watch event\'s Secret data');
});

test('a webhook\'s caBundle is written as raw bytes in tag 22', async (t) => {
  const name = `cbor-bytes-${suffix()}`;
  const pem = Buffer.from('-----BEGIN CERTIFICATE-----\nnot checked here\n-----END CERTIFICATE-----\n');
  const created = await server.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name },
      webhooks: [
        {
          name: 'w.example.com',
          clientConfig: { url: 'https://127.0.0.1:1/hook', caBundle: pem.toString('base64') },
          rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['nothing'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    },
  });
  t.is(created.status, 201, created.text);
  t.teardown(() => server.request('DELETE', `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${name}`));
  const got = await getCbor(`/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${name}`);
  t.is(got.status, 200);
  assertTaggedBytes(t, at(got.decoded, 'webhooks', 0, 'clientConfig', 'caBundle'), pem, 'caBundle');
});

test('an APIService\'s caBundle is written as raw bytes in tag 22, also in a list', async (t) => {
  const pem = Buffer.from('-----BEGIN CERTIFICATE-----\nnot checked here\n-----END CERTIFICATE-----\n');
  const name = `v1.cbor-${suffix()}.example.com`;
  const group = name.slice('v1.'.length);
  const path = '/apis/apiregistration.k8s.io/v1/apiservices';
  const created = await server.request('POST', path, {
    body: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name },
      spec: { group, version: 'v1', groupPriorityMinimum: 100, versionPriority: 10, caBundle: pem.toString('base64'), service: { namespace: 'ns', name: 'svc' } },
    },
  });
  t.is(created.status, 201, created.text);
  t.teardown(() => server.request('DELETE', `${path}/${name}`));
  const got = await getCbor(`${path}/${name}`);
  t.is(got.status, 200);
  assertTaggedBytes(t, at(got.decoded, 'spec', 'caBundle'), pem, 'caBundle');
  const list = await getCbor(path);
  const items = at(list.decoded, 'items') as unknown[];
  const item = items.find((i) => String(at(i, 'metadata', 'name')) === name);
  assertTaggedBytes(t, at(item, 'spec', 'caBundle'), pem, 'caBundle in the list');
});

test('round trip: a Secret read in CBOR and written back in CBOR keeps its bytes', async (t) => {
  const ns = await createNamespace(server, 'cbor-bytes-rt');
  await server.request('POST', secretsPath(ns), { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { key: b64 } } });
  const got = await sendBinary(server, 'GET', secretsPath(ns, 's'), { accept: cborType });
  const put = await sendBinary(server, 'PUT', secretsPath(ns, 's'), { body: got.bytes, contentType: cborType, accept: cborType });
  t.is(put.status, 200, put.bytes.toString());
  assertTaggedBytes(t, at(independent.decode(put.bytes), 'data', 'key'), raw, 'the updated Secret\'s data');
  const json = await server.request('GET', secretsPath(ns, 's'));
  t.deepEqual(json.body.data, { key: b64 });
});

test('a Secret created from a CBOR body: tagged byte strings are the bytes, untagged ones their base64 text', async (t) => {
  const ns = await createNamespace(server, 'cbor-bytes-create');
  const body = independent.encode(
    new Map<string, unknown>([
      ['apiVersion', 'v1'],
      ['kind', 'Secret'],
      ['metadata', new Map([['name', 's']])],
      ['data', new Map<string, unknown>([['tagged', new cbor.Tagged(22, raw)], ['untagged', Buffer.from(b64)]])],
    ]),
  );
  const created = await sendBinary(server, 'POST', secretsPath(ns), { body, contentType: cborType });
  t.is(created.status, 201, created.bytes.toString());
  const json = await server.request('GET', secretsPath(ns, 's'));
  t.deepEqual(json.body.data, { tagged: b64, untagged: b64 });
});

test('bad bytes in a CBOR body are kube\'s 400, nothing stored', async (t) => {
  const ns = await createNamespace(server, 'cbor-bytes-bad');
  const secretWith = (data: unknown) =>
    independent.encode(new Map<string, unknown>([['apiVersion', 'v1'], ['kind', 'Secret'], ['metadata', new Map([['name', 'bad']])], ['data', data]]));
  const cases: [string, Buffer, string][] = [
    ['a byte string for the map', secretWith(Buffer.from('abc')), 'cbor: cannot unmarshal byte string into Go struct field v1.Secret.data of type map[string][]uint8'],
    ['a text string for the bytes', secretWith(new Map([['k', b64]])), 'cbor: cannot unmarshal UTF-8 text string into Go struct field v1.Secret.data of type []uint8'],
    ['a number for the bytes', secretWith(new Map([['k', 7]])), 'cbor: cannot unmarshal positive integer into Go struct field v1.Secret.data of type []uint8'],
    ['an untagged byte string not base64', secretWith(new Map([['k', Buffer.from('a*cd')]])), 'cbor: failed to decode base64 from byte string: illegal base64 data at input byte 1'],
  ];
  for (const [what, body, cause] of cases) {
    const res = await sendBinary(server, 'POST', secretsPath(ns), { body, contentType: cborType });
    t.is(res.status, 400, what);
    const status = JSON.parse(res.bytes.toString());
    t.is(status.reason, 'BadRequest', what);
    t.is(status.message, `Secret in version "v1" cannot be handled as a Secret: ${cause}`, what);
  }
  t.is((await server.request('GET', secretsPath(ns, 'bad'))).status, 404);
});
