// A RestStorage whose watch returns a promise may refuse the watch before it starts: the client gets the error's
// Status and HTTP code, as kube answers a watch from a resourceVersion its cache has not reached (504), not a 200
// stream. A watch it lets start streams as usual.
import test from 'ava';
import { errors, resourceModule, type RestStorage } from '../../index.js';
import { expectStatus, useTestServer } from '../helpers/test-server.js';

const group = 'tides.example.com';
const path = `/apis/${group}/v1/tides`;
const current = 5;

const tides: RestStorage = {
  async list() {
    return { items: [{ metadata: { name: 'high', resourceVersion: String(current) } }], resourceVersion: String(current) };
  },
  async watch(_ctx, options) {
    if (Number(options.resourceVersion) > current) throw errors.tooLargeResourceVersion(options.resourceVersion!, current);
    return (async function* () {
      yield { type: 'MODIFIED' as const, object: { metadata: { name: 'high', resourceVersion: String(current + 1) } } };
    })();
  },
};

const server = useTestServer({
  storage: 'memory',
  modules: [resourceModule({ group, versions: ['v1'], kind: 'Tide', plural: 'tides', scope: 'Cluster', storage: tides })],
});

test('a watch the storage refuses before it starts is answered with the Status: 504 Too large resource version, Retry-After', async (t) => {
  const res = await server.request('GET', `${path}?watch=true&resourceVersion=9`);
  expectStatus(t, res, { code: 504, reason: 'Timeout', message: 'Timeout: Too large resource version: 9, current: 5' });
  t.is(res.headers['retry-after'], '1');
  t.like(res.body.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
});

test('a watch the storage lets start streams its events', async (t) => {
  const res = await server.request('GET', `${path}?watch=true&resourceVersion=${current}`);
  t.is(res.status, 200, res.text);
  t.deepEqual(
    res.text.trim().split('\n').map((line) => JSON.parse(line) as { type: string; object: { metadata: { resourceVersion: string } } }).map((e) => [e.type, e.object.metadata.resourceVersion]),
    [['MODIFIED', '6']],
  );
});
