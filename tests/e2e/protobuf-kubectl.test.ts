// Bodies produced by the real kubectl (v1.32): it POSTs built-in kinds as Kubernetes protobuf.
import 'reflect-metadata';
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiServer, defaultModules } from '../../index.js';
import { decodeKubeProtobuf, encodeKubeProtobuf } from '../../plugins/codecs/protobuf/index.js';


interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs kubectl without any kubeconfig, with a throwaway HOME (for its cache); killed after 60 s. */
function kubectl(args: string[]): Promise<KubectlResult> {
  const home = mkdtempSync(join(tmpdir(), 'kapi-pb-kubectl-'));
  return new Promise((resolve) => {
    execFile(
      'kubectl',
      [...args, '--request-timeout=20s'],
      { env: { ...process.env, HOME: home, KUBECONFIG: join(home, 'no-kubeconfig') }, timeout: 60_000 },
      (err, stdout, stderr) => {
        rmSync(home, { recursive: true, force: true });
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

interface Captured {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A loopback HTTP server that records request bodies and answers like an API server would, just enough for kubectl. */
async function captureServer(): Promise<{ url: string; requests: Captured[]; close(): Promise<void> }> {
  const requests: Captured[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/version')) {
        res.end(JSON.stringify({ major: '1', minor: '32', gitVersion: 'v1.32.0' }));
      } else if (req.method === 'POST') {
        res.statusCode = 201;
        res.end(JSON.stringify({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'demo', uid: 'u1', resourceVersion: '1' } }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function captureCreate(extra: string[]): Promise<Captured> {
  const srv = await captureServer();
  try {
    const r = await kubectl(['create', 'namespace', 'demo', ...extra, '--server', srv.url, '--insecure-skip-tls-verify', '--token', 'x']);
    if (r.code !== 0) throw new Error(`kubectl exited ${r.code}: ${r.stderr}`);
    const post = srv.requests.find((q) => q.method === 'POST');
    if (!post) throw new Error(`kubectl sent no POST: ${srv.requests.map((q) => `${q.method} ${q.url}`).join(', ')}`);
    return post;
  } finally {
    await srv.close();
  }
}

test('decodes the body of `kubectl create namespace demo`', async (t) => {
  const post = await captureCreate([]);
  t.true(post.url.startsWith('/api/v1/namespaces'), post.url);
  t.is(post.headers['content-type'], 'application/vnd.kubernetes.protobuf');
  t.deepEqual([...post.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
  const obj = decodeKubeProtobuf(post.body, { apiVersion: 'v1', kind: 'Namespace' });
  t.is((obj.metadata as { name: string }).name, 'demo');
  t.deepEqual(obj, { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'demo', creationTimestamp: null }, spec: {}, status: {} });
  // The encoder writes what kubectl's Go marshaller wrote, byte for byte.
  t.is(encodeKubeProtobuf(obj).toString('hex'), post.body.toString('hex'));
});

test('JSON shape equals Go\'s own: kubectl --save-config embeds its JSON of the object it sends', async (t) => {
  const post = await captureCreate(['--save-config']);
  const obj = decodeKubeProtobuf(post.body, { apiVersion: 'v1', kind: 'Namespace' }) as {
    metadata: { name: string; annotations: Record<string, string> };
  };
  t.is(obj.metadata.name, 'demo');
  const lastApplied = obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'];
  t.truthy(lastApplied);
  const { annotations: _annotations, ...metaWithout } = obj.metadata;
  // kubectl serialized the object with encoding/json before adding the annotation: same keys, order and nulls.
  t.is(JSON.stringify({ ...obj, metadata: metaWithout }) + '\n', lastApplied);
  t.is(encodeKubeProtobuf(obj).toString('hex'), post.body.toString('hex'));
});

test('kapi serve\'s default modules: kubectl creates a namespace in protobuf and reads kapi\'s protobuf answer', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kapi-pb-server-'));
  const server = createApiServer({
    modules: defaultModules({ storage: 'memory', dataDir, authModules: [] }),
  });
  try {
    const { url } = await server.listen({ port: 0, host: '127.0.0.1' });
    // kubectl sends `Accept: application/vnd.kubernetes.protobuf,application/json`: client-go decodes the protobuf
    // answer into its Go object and prints that as JSON.
    const r = await kubectl(['create', 'namespace', 'demo', '-o', 'json', '--server', url, '--insecure-skip-tls-verify', '--token', 'x']);
    t.is(r.code, 0, r.stderr);
    const printed = JSON.parse(r.stdout) as { metadata: Record<string, unknown> };
    const res = await fetch(`${url}/api/v1/namespaces/demo`);
    t.is(res.status, 200);
    const ns = (await res.json()) as { metadata: Record<string, unknown>; status?: { phase?: string } };
    t.is(ns.metadata.name, 'demo');
    t.truthy(ns.metadata.uid);
    t.regex(String(ns.metadata.creationTimestamp), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    // What kubectl printed from the protobuf is kapi's JSON of the same object (kubectl hides managedFields).
    const { managedFields: _managed, ...metadata } = ns.metadata;
    t.deepEqual(printed, { ...ns, metadata });
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
