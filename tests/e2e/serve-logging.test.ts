// `kapi serve --logging-format json -v 3`: every line on stderr is a JSON object, and each request has kube's httplog
// line carrying the Audit-ID the response had.
import test from 'ava';
import { useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ args: ['--storage', 'memory', '--logging-format', 'json', '-v', '3'] });

test('a request\'s log line carries its Audit-ID, verb, URI and code, as JSON', async (t) => {
  const res = await kapi.kubectl(['get', '--raw', '/api/v1/namespaces/nope', '-v=8']);
  t.not(res.code, 0);
  const auditId = /Audit-Id: ([0-9a-f-]{36})/i.exec(res.stderr)?.[1];
  t.truthy(auditId, res.stderr);
  const line = await waitForLine((l) => l['audit-ID'] === auditId);
  t.like(line, { level: 'info', v: 3, msg: 'HTTP', verb: 'GET', URI: '/api/v1/namespaces/nope?timeout=20s', resp: 404 });
  t.regex(String(line.userAgent), /^kubectl\//);
  t.regex(String(line.latency), /^[\d.]+(ns|µs|ms|s)$/);
});

test('nothing but JSON lines on stderr', async (t) => {
  await waitForLine((l) => l.msg === 'HTTP');
  const stderr = kapi.output().split('\n').filter((l) => l.startsWith('{'));
  t.true(stderr.length > 0);
  for (const l of stderr) t.notThrows(() => JSON.parse(l), l);
});

async function waitForLine(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = kapi
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no such log line in:\n${kapi.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
