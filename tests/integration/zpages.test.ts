/** /statusz and /flagz as kube-apiserver serves them: text/plain with kube's title and warning, RBAC-protected. */
import test from 'ava';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer({
  storage: 'memory',
  config: { flags: { storage: 'memory', port: '0', 'bind-address': '127.0.0.1', crds: '[]' } },
  tokens: [
    { token: 'nobody-token', user: { username: 'nobody', groups: [] } },
    { token: 'monitor-token', user: { username: 'prometheus', groups: ['system:monitoring'] } },
  ],
});

const warning = 'Warning: This endpoint is not meant to be machine parseable, has no formatting compatibility guarantees and is for debugging purposes only.';
/** kube writes one of these, chosen at random, between names and values. */
const delimiter = '(:|: |=| )';

test('/statusz: start, uptime, runtime, binary and emulation versions in kube\'s text form', async (t) => {
  const res = await server.request('GET', '/statusz', { token: 'monitor-token' });
  t.is(res.status, 200, res.text);
  t.is(res.headers['content-type'], 'text/plain; charset=utf-8');
  t.is(res.headers['x-content-type-options'], 'nosniff');
  const page = new RegExp(
    `^\\nkapi statusz\\n${warning.replaceAll('.', '\\.')}\\n\\n` +
      `Started${delimiter} [A-Z][a-z]{2} [A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d UTC \\d{4}\\n` +
      `Up\\1 \\d+ hr \\d\\d min \\d\\d sec\\n` +
      `Go version\\1 node\\d+\\.\\d+\\.\\d+\\n` +
      `Binary version\\1 1\\.32\\.0-kapi\\.0\\.1\\.0\\n` +
      `Emulation version\\1 1\\.32\\n$`,
  );
  t.regex(res.text, page);
});

test('/flagz: the flags the server was started with, sorted, one delimiter for all', async (t) => {
  const res = await server.request('GET', '/flagz', { token: 'monitor-token' });
  t.is(res.status, 200, res.text);
  t.is(res.headers['content-type'], 'text/plain; charset=utf-8');
  t.regex(res.text, new RegExp(`^\\nkapi flags\\n${warning.replaceAll('.', '\\.')}\\n\\nbind-address${delimiter}127\\.0\\.0\\.1\\ncrds\\1\\[\\]\\nport\\1(?:0)\\nstorage\\1memory\\n$`));
  // the same page every time, as kube renders it once
  t.is((await server.request('GET', '/flagz', { token: 'monitor-token' })).text, res.text);
});

test('content negotiation as kube\'s zpages: text/plain or a wildcard, no parameter but charset=utf-8; else 406 in plain text', async (t) => {
  for (const accept of ['text/plain', 'text/plain; charset=utf-8', '*/*', 'text/*', 'application/json, */*', 'application/json;q=0.9,text/plain;q=0.5']) {
    t.is((await server.request('GET', '/statusz', { headers: { accept } })).status, 200, accept);
  }
  for (const path of ['/statusz', '/flagz']) {
    for (const accept of ['application/json', 'text/html', 'text/plain; charset=latin1', 'text/plain; version=1']) {
      const res = await server.request('GET', path, { headers: { accept } });
      t.is(res.status, 406, `${path} ${accept}`);
      t.is(res.headers['content-type'], 'text/plain; charset=utf-8');
      t.is(res.text, 'media type not acceptable, must be: text/plain\n');
    }
  }
});

test('RBAC: system:monitoring may read /statusz and /flagz, another user gets kube\'s 403', async (t) => {
  for (const path of ['/statusz', '/flagz']) {
    const denied = await server.request('GET', path, { token: 'nobody-token' });
    t.is(denied.status, 403);
    t.like(denied.body, { kind: 'Status', reason: 'Forbidden', message: `forbidden: User "nobody" cannot get path "${path}"` });
    t.is((await server.request('GET', path, { token: 'monitor-token' })).status, 200);
  }
});
