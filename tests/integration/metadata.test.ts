/** ObjectMeta on create: names, generateName, system fields, labels, namespace names. */
import test from 'ava';
import { createNamespace, expectStatus, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const subdomainRule =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelRule =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

async function widgetCount(ns: string): Promise<number> {
  return (await server.request('GET', widgetsPath(ns))).body.items.length;
}

test('an invalid object name is 422 with a cause on metadata.name', async (t) => {
  const ns = await createNamespace(server, 'meta');
  const res = await server.request('POST', widgetsPath(ns), { body: widget('Bad_Name') });
  const cause = `Invalid value: "Bad_Name": ${subdomainRule}`;
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: `Widget.example.com "Bad_Name" is invalid: metadata.name: ${cause}` });
  t.deepEqual(res.body.details, {
    name: 'Bad_Name',
    group: 'example.com',
    kind: 'Widget',
    causes: [{ reason: 'FieldValueInvalid', message: cause, field: 'metadata.name' }],
  });
  t.is(await widgetCount(ns), 0);
});

test('a missing name is 422 Required on metadata.name', async (t) => {
  const ns = await createNamespace(server, 'meta');
  const body = widget('x');
  delete (body.metadata as { name?: string }).name;
  const res = await server.request('POST', widgetsPath(ns), { body });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(res.body.details.causes, [
    { reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' },
  ]);
});

test('generateName: the name is the prefix plus 5 random characters', async (t) => {
  const ns = await createNamespace(server, 'meta');
  const body = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { generateName: 'gen-' }, spec: { color: 'red' } };
  const first = await server.request('POST', widgetsPath(ns), { body });
  const second = await server.request('POST', widgetsPath(ns), { body });
  t.is(first.status, 201);
  t.is(second.status, 201);
  // k8s.io/apimachinery/pkg/util/rand's alphabet: no vowels, no confusable characters.
  t.regex(first.body.metadata.name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  t.regex(second.body.metadata.name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  t.not(first.body.metadata.name, second.body.metadata.name);
  t.is(first.body.metadata.generateName, 'gen-');
  const get = await server.request('GET', widgetsPath(ns, first.body.metadata.name));
  t.is(get.status, 200);
});

test('system fields are set by the server, whatever the client sent', async (t) => {
  const ns = await createNamespace(server, 'meta');
  const before = Date.now();
  const body = widget('w1');
  Object.assign(body.metadata, { uid: 'client-chosen-uid', creationTimestamp: '2001-01-01T00:00:00Z', generation: 7 });
  const res = await server.request('POST', widgetsPath(ns), { body });
  t.is(res.status, 201);
  const meta = res.body.metadata;
  t.regex(meta.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  t.not(meta.uid, 'client-chosen-uid');
  t.regex(meta.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const created = Date.parse(meta.creationTimestamp);
  t.true(created >= Math.floor(before / 1000) * 1000 && created <= Date.now() + 1000, meta.creationTimestamp);
  t.regex(meta.resourceVersion, /^[1-9]\d*$/);
  t.is(meta.generation, 1);
  t.is(meta.namespace, ns);
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body.metadata.uid, meta.uid);
  t.is(get.body.metadata.creationTimestamp, meta.creationTimestamp);
});

test('each write gets a larger resourceVersion', async (t) => {
  const ns = await createNamespace(server, 'meta');
  const a = await server.request('POST', widgetsPath(ns), { body: widget('a') });
  const b = await server.request('POST', widgetsPath(ns), { body: widget('b') });
  const patched = await server.request('PATCH', widgetsPath(ns, 'a'), { body: { spec: { color: 'blue' } }, contentType: 'application/merge-patch+json' });
  const rvs = [a, b, patched].map((r) => BigInt(r.body.metadata.resourceVersion));
  t.true(rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!, rvs.join(' < '));
});

test('an invalid label key is 422 on metadata.labels', async (t) => {
  const ns = await createNamespace(server, 'meta');
  const res = await server.request('POST', widgetsPath(ns), { body: widget('w1', { labels: { 'bad key!': 'v' } }) });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  const causes = res.body.details.causes;
  t.is(causes.length, 1);
  t.is(causes[0].field, 'metadata.labels');
  t.is(causes[0].reason, 'FieldValueInvalid');
  t.true(causes[0].message.startsWith('Invalid value: "bad key!": name part must consist of alphanumeric characters'), causes[0].message);
  t.is(await widgetCount(ns), 0);
});

test('an invalid label value is 422 on metadata.labels', async (t) => {
  const ns = await createNamespace(server, 'meta');
  for (const value of ['not valid!', '-leading', 'x'.repeat(64)]) {
    const res = await server.request('POST', widgetsPath(ns), { body: widget('w1', { labels: { tier: value } }) });
    expectStatus(t, res, { code: 422, reason: 'Invalid' });
    t.deepEqual(
      res.body.details.causes.map((c: { field: string }) => c.field),
      ['metadata.labels'],
      value,
    );
    t.true(res.body.details.causes[0].message.startsWith(`Invalid value: ${JSON.stringify(value)}: `), res.body.details.causes[0].message);
  }
  t.is(await widgetCount(ns), 0);
});

test('valid labels, including prefixed keys and empty values, are stored', async (t) => {
  const ns = await createNamespace(server, 'meta');
  const labels = { 'example.com/tier': 'gold', app: '', 'a.b_c-d': 'X.y_z-1' };
  const res = await server.request('POST', widgetsPath(ns), { body: widget('w1', { labels }) });
  t.is(res.status, 201);
  t.deepEqual(res.body.metadata.labels, labels);
});

test('a namespace name must be a DNS label', async (t) => {
  const res = await server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'has.dot' } } });
  const cause = `Invalid value: "has.dot": ${labelRule}`;
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: `Namespace "has.dot" is invalid: metadata.name: ${cause}` });
  t.deepEqual(res.body.details, { name: 'has.dot', kind: 'Namespace', causes: [{ reason: 'FieldValueInvalid', message: cause, field: 'metadata.name' }] });
  t.is((await server.request('GET', '/api/v1/namespaces/has.dot')).status, 404);

  const long = 'n'.repeat(64);
  const tooLong = await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: long } } });
  expectStatus(t, tooLong, { code: 422, reason: 'Invalid' });
  t.is(tooLong.body.details.causes[0].field, 'metadata.name');
  t.is(tooLong.body.details.causes[0].message, `Invalid value: "${long}": must be no more than 63 characters`);
});

test('a body namespace that differs from the URL is 400', async (t) => {
  const ns = await createNamespace(server, 'meta');
  const body = widget('w1');
  Object.assign(body.metadata, { namespace: 'somewhere-else' });
  const res = await server.request('POST', widgetsPath(ns), { body });
  expectStatus(t, res, { code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request' });
  t.is(await widgetCount(ns), 0);
});
