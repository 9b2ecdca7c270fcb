// `kapi serve --audit-policy-file --audit-log-path` with kube's rotation flags: kubectl's requests in the log as kube's
// audit Events, one JSON object per line whatever a client sends, rotated at --audit-log-maxsize; a bad policy or bad
// log flags are usage errors with kube-apiserver's messages.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import tls from 'node:tls';
import { repoRoot, startKapi, tempDir, tempFile } from '../helpers/kapi-process.js';

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: ['/openapi*']
- level: RequestResponse
  resources: [{group: '', resources: [configmaps]}]
- level: Metadata
`;

const serve = (args: string[]) =>
  spawnSync(process.execPath, ['bin/kapi', 'serve', '--port', '0', '--data-dir', '/nonexistent/never-created', ...args], { cwd: repoRoot, encoding: 'utf8' });

test("a bad policy file or bad log flags are usage errors with kube-apiserver's messages", (t) => {
  const loud = tempFile('loud.yaml', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n');
  const bad = serve(['--audit-policy-file', loud]);
  t.is(bad.status, 2, bad.stderr);
  t.is(
    bad.stderr,
    `kapi: loading audit policy file: rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${loud} (see kapi serve --help)\n`,
  );
  const beta = tempFile('beta.yaml', 'apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: None\n');
  t.is(serve(['--audit-policy-file', beta]).stderr, `kapi: loading audit policy file: failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1": from file ${beta} (see kapi serve --help)\n`);
  t.is(serve(['--audit-log-path', '-', '--audit-log-maxsize=-1']).stderr, "kapi: --audit-log-maxsize -1 can't be a negative number (see kapi serve --help)\n");
  t.is(serve(['--audit-log-path', '-', '--audit-log-maxage', 'ten']).stderr, 'kapi: invalid argument "ten" for "--audit-log-maxage" flag: strconv.ParseInt: parsing "ten": invalid syntax (see kapi serve --help)\n');
  t.is(serve(['--audit-log-path', '-', '--audit-log-format', 'xml']).stderr, 'kapi: invalid audit log format xml, allowed formats are "legacy,json" (see kapi serve --help)\n');
});

/** Sends `head` and `body` as they are over TLS (no client library would send such bytes) and resolves with the status. */
function rawRequest(url: string, ca: string, head: Buffer, body: Buffer): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // Not ended after the request: a TLS half-close may end the connection before a busy server answers.
    const socket = tls.connect({ host: hostname, port: Number(port), ca, servername: 'localhost' }, () => socket.write(Buffer.concat([head, body])));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      answer += d;
      const status = /^HTTP\/1\.1 (\d+)/.exec(answer);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('end', () => resolve(0));
    socket.on('error', reject);
  });
}

test('the log is rotated at --audit-log-maxsize, --audit-log-maxbackup files kept', async (t) => {
  const logDir = tempDir('kapi-e2e-audit-');
  const logPath = join(logDir, 'audit.log');
  const kapi = await startKapi({
    args: ['--audit-policy-file', tempFile('policy.yaml', policy), '--audit-log-path', logPath, '--audit-log-maxsize', '1', '--audit-log-maxbackup', '1'],
  });
  // A 400 KiB configmap is logged with its request and its response: about 800 KiB, one such event a file.
  const big = tempFile('big.txt', 'x'.repeat(400 * 1024));
  try {
    for (let i = 0; i < 3; i++) t.is((await kapi.kubectl(['create', 'configmap', `big-${i}`, `--from-file=k=${big}`])).code, 0);
  } finally {
    t.is((await kapi.stop()).code, 0, kapi.output());
  }
  const files = readdirSync(logDir).sort();
  t.is(files.length, 2, files.join(' '));
  t.regex(files[0]!, /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/);
  const names = (file: string) =>
    readFileSync(join(logDir, file), 'utf8')
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l).objectRef?.name)
      .filter(Boolean);
  t.deepEqual(names(files[0]!), ['big-1']);
  t.deepEqual(names('audit.log'), ['big-2']);
});

test('with no rotation the whole series is in one file, hostile bytes and all', async (t) => {
  const logPath = join(tempDir('kapi-e2e-audit-'), 'audit.log');
  const kapi = await startKapi({ args: ['--audit-policy-file', tempFile('policy.yaml', policy), '--audit-log-path', logPath] });
  let hostileUri = '';
  try {
    t.is((await kapi.kubectl(['create', 'configmap', 'audited', '--from-literal=k=v'])).code, 0);
    t.is((await kapi.kubectl(['get', 'configmap', 'audited', '-o', 'name'])).code, 0);
    t.is((await kapi.kubectl(['delete', 'configmap', 'audited'])).code, 0);
    const token = readFileSync(join(kapi.dataDir, 'admin-token'), 'utf8').trim();
    const ca = readFileSync(join(kapi.dataDir, 'pki', 'ca.crt'), 'utf8');
    const body = Buffer.from(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"hostile","annotations":{"a":"\\"}\\n{\\"kind\\":\\"Event\\"}"}},' +
        '"data":{"k":"v\u2028\u0085\\r\\n\\u0000"}}',
    );
    hostileUri = '/api/v1/namespaces/default/configmaps?x="}\\<>{}|^%E2%80%A8%0A';
    const head = Buffer.from(
      `POST ${hostileUri} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        'User-Agent: evil"}\\\xe2\x80\xa8\x85\r\nX-Forwarded-For: 10.0.0.1, "},{\r\n\r\n',
      'latin1',
    );
    t.is(await rawRequest(kapi.url, ca, head, body), 201);
  } finally {
    t.is((await kapi.stop()).code, 0, kapi.output());
  }
  const text = readFileSync(logPath, 'utf8');
  t.false(/[\u2028\u2029\u0085\r]/.test(text));
  const events = text.split('\n').slice(0, -1).map((l) => JSON.parse(l));
  const configmaps = events.filter((e) => e.objectRef?.resource === 'configmaps');
  t.deepEqual(
    configmaps.map((e) => [e.verb, e.objectRef.name, e.responseStatus.code]),
    [
      ['create', 'audited', 201],
      ['get', 'audited', 200],
      ['delete', 'audited', 200],
      ['get', 'audited', 404], // kubectl delete waits for the object to be gone
      ['create', 'hostile', 201],
    ],
  );
  const hostile = configmaps[4];
  t.is(hostile.requestURI, hostileUri);
  t.is(hostile.userAgent, 'evil"}\\\xe2\x80\xa8\x85', 'the header bytes, one character each as Node reads them');
  t.deepEqual(hostile.sourceIPs, ['10.0.0.1', '127.0.0.1']);
  t.deepEqual(hostile.requestObject.metadata.annotations, { a: '"}\n{"kind":"Event"}' });
  t.deepEqual(hostile.requestObject.data, { k: 'v\u2028\u0085\r\n\u0000' });
  t.true(events.every((e) => e.stage === 'ResponseComplete' && e.auditID && e.user.username === 'kapi-admin'));
  t.true(events.some((e) => e.verb === 'get' && !e.objectRef && e.requestURI.startsWith('/api')), 'kubectl discovery: non-resource requests');
  t.false(events.some((e) => e.requestURI.startsWith('/openapi')), 'a rule at None');
});
