// `kapi gen proto` run as a process on CRD files: the .proto on stdout or in a file, the field numbers written back
// into the CRD, kept across schema changes; and a client built from that .proto reading what `kapi serve` serves.
import test from 'ava';
import https from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { KubeProtobufClient } from '../helpers/kube-protobuf-client.js';
import { describe, example, removeDir, startKapi, tempDir } from '../helpers/kapi-process.js';
import { runKapiCommand as kapi } from '../helpers/kapi-command.js';

const annotation = 'proto.kapi.dev/field-numbers';

/** A copy of the example widgets CRD in a fresh folder (removed after the test). */
function widgetsCrdCopy(t: import('ava').ExecutionContext): { dir: string; crd: string } {
  const dir = tempDir('kapi-gen-proto-');
  t.teardown(() => removeDir(dir));
  const crd = join(dir, 'widgets-crd.yaml');
  writeFileSync(crd, `# The widgets CRD.\n${readFileSync(example('widgets-crd.yaml'), 'utf8')}`);
  return { dir, crd };
}

test('prints the .proto of the storage version and says the new numbers are not recorded yet', async (t) => {
  const { crd } = widgetsCrdCopy(t);
  const before = readFileSync(crd, 'utf8');
  const res = await kapi(['gen', 'proto', crd]);
  t.is(res.code, 0, res.stderr);
  t.regex(res.stdout, /^syntax = "proto2";$/m);
  t.regex(res.stdout, /^package example\.com\.v1;$/m);
  t.regex(res.stdout, /^import "k8s\.io\/apimachinery\/pkg\/apis\/meta\/v1\/generated\.proto";$/m);
  t.regex(res.stdout, /message Widget \{\n {2}optional \.k8s\.io\.apimachinery\.pkg\.apis\.meta\.v1\.ObjectMeta metadata = 1;\n {2}optional \.example\.com\.v1\.WidgetSpec spec = 2;\n {2}optional \.example\.com\.v1\.WidgetStatus status = 3;\n\}/);
  t.regex(res.stdout, /message WidgetSpec \{\n {2}optional string color = 1;\n {2}optional int64 replicas = 2;\n\}/);
  t.is(
    res.stderr,
    'kapi: not recorded in the CRD yet: 7 new field numbers ($.metadata=1, $.spec=2, $.status=3, $.spec.color=1, $.spec.replicas=2, …); ' +
      'run again with --write-crd and apply the CRD, so they stay stable and kapi serves this protobuf\n',
  );
  t.is(readFileSync(crd, 'utf8'), before, 'the CRD file is left alone');
});

test('--write-crd records the numbers in the CRD; a later schema change keeps them and numbers the new field', async (t) => {
  const { dir, crd } = widgetsCrdCopy(t);
  const out = join(dir, 'widgets.proto');
  const first = await kapi(['gen', 'proto', crd, '--write-crd', '-o', out]);
  t.is(first.code, 0, first.stderr);
  t.is(first.stdout, '');
  t.regex(first.stderr, /^kapi: wrote the field numbers of version v1 to .*widgets-crd\.yaml \(7 new field numbers/);
  const written = readFileSync(crd, 'utf8');
  t.true(written.startsWith('# The widgets CRD.\n'), 'comments are kept');
  const doc = YAML.parse(written);
  t.is(
    doc.metadata.annotations[annotation],
    '{"v1":{"$":{"metadata":1,"spec":2,"status":3},"$.spec":{"color":1,"replicas":2},"$.status":{"ready":1,"replicas":2}}}',
  );
  const proto = readFileSync(out, 'utf8');

  const again = await kapi(['gen', 'proto', crd, '--write-crd', '-o', out]);
  t.deepEqual(again, { code: 0, stdout: '', stderr: '' }, 'nothing new: nothing to say or write');
  t.is(readFileSync(out, 'utf8'), proto);

  // A field added in front (by name) and one removed: old numbers stay, the removed one stays reserved.
  const spec = doc.spec.versions[0].schema.openAPIV3Schema.properties.spec;
  spec.properties = { audience: { type: 'string' }, color: spec.properties.color };
  writeFileSync(crd, YAML.stringify(doc));
  const changed = await kapi(['gen', 'proto', crd, '--write-crd']);
  t.is(changed.code, 0, changed.stderr);
  t.regex(changed.stdout, /message WidgetSpec \{\n {2}optional string color = 1;\n {2}optional string audience = 3;\n\n {2}\/\/ Fields the schema no longer has\.\n {2}reserved 2;\n {2}reserved "replicas";\n\}/);
  t.regex(changed.stderr, /\(1 new field number \(\$\.spec\.audience=3\)\)/);
  t.regex(YAML.parse(readFileSync(crd, 'utf8')).metadata.annotations[annotation], /"\$\.spec":\{"color":1,"replicas":2,"audience":3\}/);
});

test('bad command lines and files are refused with a reason', async (t) => {
  const { crd } = widgetsCrdCopy(t);
  t.like(await kapi(['gen', 'proto']), { code: 2, stderr: 'kapi: missing the CRD file (see kapi gen --help)\n' });
  t.like(await kapi(['gen', 'proto', crd, '--bogus']), { code: 2 });
  t.like(await kapi(['gen', 'nothing']), { code: 2, stderr: 'kapi: unknown generator "nothing" (see kapi gen --help)\n' });
  t.like(await kapi(['gen', 'proto', crd, '--version', 'v9']), { code: 1, stderr: 'kapi: the CRD has no version "v9" (versions: v1)\n' });
  const notCrd = join(crd, '..', 'ns.yaml');
  writeFileSync(notCrd, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n');
  t.like(await kapi(['gen', 'proto', notCrd]), { code: 1, stderr: `kapi: ${notCrd} holds no CustomResourceDefinition\n` });
  const badAnnotation = join(crd, '..', 'bad.yaml');
  writeFileSync(badAnnotation, readFileSync(crd, 'utf8').replace('name: widgets.example.com', `name: widgets.example.com\n  annotations:\n    ${annotation}: '{"v1":{"$":{"spec":2,"status":2}}}'`));
  t.like(await kapi(['gen', 'proto', badAnnotation]), {
    code: 1,
    stderr: `kapi: annotation ${annotation}: v1 $: "spec" and "status" share the field number 2\n`,
  });
  const help = await kapi(['gen', 'proto', '--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /^Usage: kapi gen proto <crd\.yaml> \[flags\]/);
});

test('a client built from the written .proto reads and writes widgets from kapi serve', async (t) => {
  const { dir, crd } = widgetsCrdCopy(t);
  const out = join(dir, 'widgets.proto');
  const gen = await kapi(['gen', 'proto', crd, '--write-crd', '-o', out]);
  t.is(gen.code, 0, gen.stderr);
  const server = await startKapi();
  t.teardown(() => server.stop());
  for (const args of [['apply', '-f', crd], ['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.com']]) {
    const res = await server.kubectl(args);
    t.is(res.code, 0, describe(res));
  }
  const applied = await server.kubectl(['apply', '-n', 'default', '-f', example('widget.yaml')]);
  t.is(applied.code, 0, describe(applied));

  const kubeconfig = YAML.parse(readFileSync(server.kubeconfig, 'utf8'));
  const ca = Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString();
  const token: string = kubeconfig.users[0].user.token;
  const client = new KubeProtobufClient(readFileSync(out, 'utf8'), 'example.com.v1');
  const request = (method: string, path: string, body?: Buffer) =>
    new Promise<{ status: number; type: string; bytes: Buffer }>((resolve, reject) => {
      const url = new URL(path, server.url);
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/vnd.kubernetes.protobuf' };
      if (body) Object.assign(headers, { 'content-type': 'application/vnd.kubernetes.protobuf', 'content-length': String(body.length) });
      const req = https.request(url, { method, ca, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', bytes: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(body);
    });

  const got = await request('GET', '/apis/example.com/v1/namespaces/default/widgets/w1');
  t.is(got.status, 200, got.bytes.toString());
  t.is(got.type, 'application/vnd.kubernetes.protobuf');
  const w1 = client.decode(got.bytes);
  t.is(w1.kind, 'Widget');
  t.like(w1.message, { metadata: { name: 'w1', namespace: 'default' }, spec: { color: 'blue', replicas: 3 } });

  const created = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', client.encode('example.com/v1', 'Widget', { metadata: { name: 'w2' }, spec: { color: 'green', replicas: 0 } }));
  t.is(created.status, 201, created.bytes.toString());
  const rows = await server.kubectl(['get', 'widgets', '-n', 'default', 'w2', '-o', 'jsonpath={.spec.color}/{.spec.replicas}']);
  t.is(rows.stdout, 'green/0', describe(rows));
});
