/**
 * kapi's own etcd client (gRPC over HTTP/2) against a real etcd, checked where it matters: what etcd stores and sends
 * back, large responses (HTTP/2 flow control), etcd's error statuses, unreachable and silent endpoints (the errors the
 * KV store's retry rules read), and watch streams. etcd's own etcd3 client reads back what kapi's wrote.
 */
import net from 'node:net';
import test from 'ava';
import { Etcd3 } from 'etcd3';
import { EtcdClient } from '../../plugins/storage/etcd/etcd-client.js';
import { isFutureRevision, isTransient, toApiError, wasNotSent } from '../../plugins/storage/etcd/etcd-errors.js';
import type { WatchResponse } from '../../plugins/storage/etcd/grpc/etcd-messages.js';
import { GrpcError } from '../../plugins/storage/etcd/grpc/grpc-error.js';
import { ApiError } from '../../core/contracts/api-error.js';
import { useEtcd } from '../helpers/use-etcd.js';

const etcd = useEtcd();
const soon = () => Date.now() + 5_000;
const key = (s: string) => Buffer.from(s);

function clients(t: { teardown(fn: () => void): void }) {
  const ours = new EtcdClient({ endpoints: etcd().endpoints });
  const theirs = new Etcd3({ hosts: etcd().endpoints });
  t.teardown(() => {
    ours.close();
    theirs.close();
  });
  return { ours, theirs };
}

test.serial('a create transaction stores the value; the second create of the key fails and reads the current value', async (t) => {
  const { ours, theirs } = clients(t);
  const k = key('/client/create/a');
  const create = (value: string) =>
    ours.txn(
      {
        compare: [{ key: k, target: 'create', result: 'equal', value: 0 }],
        success: [{ put: { key: k, value: Buffer.from(value) } }],
        failure: [{ range: { key: k } }],
      },
      soon(),
    );
  const first = await create('one');
  t.true(first.succeeded);
  t.true(first.header.revision > 0);
  t.is(await theirs.get('/client/create/a').string(), 'one');

  const second = await create('two');
  t.false(second.succeeded);
  const current = second.responses[0]?.range?.kvs[0];
  t.is(current?.value.toString(), 'one');
  t.is(current?.createRevision, first.header.revision);
  t.is(current?.modRevision, first.header.revision);
  t.is(current?.version, 1);
});

test.serial('a range of 24 MiB arrives whole, paged by limit with `more` and `count`', async (t) => {
  const { ours, theirs } = clients(t);
  const value = Buffer.alloc(96 * 1024, 'v');
  for (let i = 0; i < 256; i++) await theirs.put(`/client/big/${String(i).padStart(3, '0')}`).value(value);
  const all = await ours.range({ key: key('/client/big/'), rangeEnd: key('/client/big0') }, soon());
  t.is(all.kvs.length, 256);
  t.is(all.count, 256);
  t.false(all.more);
  t.true(all.kvs.every((kv) => kv.value.equals(value)));
  t.deepEqual(
    all.kvs.map((kv) => kv.key.toString()).slice(0, 2),
    ['/client/big/000', '/client/big/001'],
  );
  const page = await ours.range({ key: key('/client/big/'), rangeEnd: key('/client/big0'), limit: 10, keysOnly: true }, soon());
  t.is(page.kvs.length, 10);
  t.true(page.more);
  t.is(page.count, 256);
  t.is(page.kvs[0]!.value.length, 0);
});

test.serial('a 1 MiB value is sent whole past etcd\'s 64 KiB stream window; 1.6 MiB is etcd\'s "request is too large", a 413', async (t) => {
  const { ours, theirs } = clients(t);
  const put = (k: string, value: Buffer) => ours.txn({ compare: [], success: [{ put: { key: key(k), value } }], failure: [] }, soon());
  const mib = Buffer.alloc(1024 * 1024, 'm');
  await put('/client/large', mib);
  t.true((await theirs.get('/client/large').buffer())?.equals(mib));
  const err = await t.throwsAsync(put('/client/huge', Buffer.alloc(1.6 * 1024 * 1024, 'h')), { instanceOf: GrpcError });
  t.regex(err!.message, /etcdserver: request is too large/);
  t.is((toApiError(err) as ApiError).status.code, 413);
});

test.serial('etcd refusing a request is a gRPC status with its message: a compaction beyond the current revision', async (t) => {
  const { ours } = clients(t);
  const now = (await ours.range({ key: key('/client/none') }, soon())).header.revision;
  const err = await t.throwsAsync(ours.compact(now + 1000, soon()), { instanceOf: GrpcError });
  t.is(err!.code, 11);
  t.regex(err!.message, /^11 OUT_OF_RANGE: etcdserver: mvcc: required revision is a future revision$/);
  t.true(isFutureRevision(err));
});

test.serial('an endpoint nobody listens on: UNAVAILABLE, not sent (a write may be retried), 503 at the edge', async (t) => {
  const port = await closedPort();
  const client = new EtcdClient({ endpoints: [`http://127.0.0.1:${port}`] });
  t.teardown(() => client.close());
  const err = await t.throwsAsync(client.range({ key: key('/x') }, soon()), { instanceOf: GrpcError });
  t.is(err!.code, 14);
  t.true(wasNotSent(err));
  t.true(isTransient(err));
  const status = toApiError(err) as ApiError;
  t.is(status.status.code, 503);
});

test.serial('an endpoint that accepts connections but never answers: the call ends at its deadline with 504', async (t) => {
  const server = net.createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new EtcdClient({ endpoints: [`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`] });
  t.teardown(() => {
    client.close();
    server.close();
  });
  const started = Date.now();
  const err = await t.throwsAsync(client.range({ key: key('/x') }, Date.now() + 300), { instanceOf: GrpcError });
  t.true(Date.now() - started < 2_000);
  t.is(err!.code, 4);
  t.false(wasNotSent(err));
  t.is((toApiError(err) as ApiError).status.code, 504);
});

test.serial('a watch stream delivers creates, updates with their previous value and deletes, then stops on cancel', async (t) => {
  const { ours, theirs } = clients(t);
  const start = (await ours.range({ key: key('/client/none') }, soon())).header.revision + 1;
  const responses: WatchResponse[] = [];
  let ended: Error | undefined;
  const stream = ours.watch(
    { key: key('/client/watch/'), rangeEnd: key('/client/watch0'), startRevision: start, prevKv: true },
    { onResponse: (r) => responses.push(r), onEnd: (err) => (ended = err) },
  );
  await theirs.put('/client/watch/a').value('1');
  await theirs.put('/client/watch/a').value('2');
  await theirs.delete().key('/client/watch/a');
  const events = () => responses.flatMap((r) => r.events);
  await until(() => events().length === 3);
  t.true(responses[0]!.created);
  t.deepEqual(
    events().map((e) => [e.type, e.kv.key.toString(), e.kv.value.toString(), e.prevKv?.value.toString()]),
    [
      ['PUT', '/client/watch/a', '1', undefined],
      ['PUT', '/client/watch/a', '2', '1'],
      ['DELETE', '/client/watch/a', '', '2'],
    ],
  );
  stream.cancel();
  await theirs.put('/client/watch/b').value('3');
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(events().length, 3);
  t.is(ended, undefined);
});

test.serial('a watch from a compacted revision is cancelled with etcd\'s compacted revision', async (t) => {
  const { ours, theirs } = clients(t);
  await theirs.put('/client/compacted/a').value('1');
  const rev = Number((await theirs.put('/client/compacted/a').value('2').exec()).header.revision);
  await ours.compact(rev, soon());
  const res = await new Promise<WatchResponse>((resolve) => {
    const stream = ours.watch(
      { key: key('/client/compacted/a'), startRevision: rev - 1 },
      { onResponse: (r) => r.canceled && (stream.cancel(), resolve(r)), onEnd: () => undefined },
    );
  });
  t.is(res.compactRevision, rev);
});

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
