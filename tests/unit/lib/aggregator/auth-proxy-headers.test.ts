import test from 'ava';
import { authProxyHeaders, forwardedHeaders, headerKeyEscape, isClientIdentityHeader } from '../../../../lib/aggregator/auth-proxy-headers.js';

test('extra keys are escaped as client-go escapes them: token characters kept, the rest and % percent-encoded', (t) => {
  t.is(headerKeyEscape('scopes'), 'scopes');
  t.is(headerKeyEscape('acme.com/project'), 'acme.com%2Fproject');
  t.is(headerKeyEscape('100%'), '100%25');
  t.is(headerKeyEscape("a b!#$&'*+-.^_`|~"), "a%20b!#$&'*+-.^_`|~");
  t.is(headerKeyEscape('é'), '%C3%A9');
});

test('the user as front-proxy headers: one group line per group, one extra line per value, the uid when there is one', (t) => {
  t.deepEqual(authProxyHeaders({ username: 'alice', groups: ['devs', 'system:authenticated'], extra: { 'acme.com/project': ['p1', 'p2'], empty: [] } }), {
    'X-Remote-User': 'alice',
    'X-Remote-Group': ['devs', 'system:authenticated'],
    'X-Remote-Extra-acme.com%2Fproject': ['p1', 'p2'],
  });
  t.deepEqual(authProxyHeaders({ username: 'bob', uid: 'u-1', groups: [] }), { 'X-Remote-User': 'bob', 'X-Remote-Uid': 'u-1' });
});

test('forwarded headers lose the hop-by-hop ones, those Connection names, and what the caller drops', (t) => {
  const forwarded = forwardedHeaders(
    {
      accept: 'application/json',
      connection: 'keep-alive, X-Hop',
      'x-hop': '1',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      upgrade: 'websocket',
      authorization: 'Bearer secret',
      'impersonate-user': 'root',
      'x-remote-user': 'mallory',
      'x-remote-extra-scopes': 'all',
      'content-length': '12',
    },
    isClientIdentityHeader,
  );
  t.deepEqual(forwarded, { accept: 'application/json', 'content-length': '12' });
});

test("an HTTP/2 message's pseudo-headers are not forwarded: each hop writes its own", (t) => {
  const forwarded = forwardedHeaders({ ':method': 'GET', ':path': '/apis', ':authority': 'front:6443', ':scheme': 'https', ':status': '200', accept: 'application/json' } as never);
  t.deepEqual(forwarded, { accept: 'application/json' });
});
