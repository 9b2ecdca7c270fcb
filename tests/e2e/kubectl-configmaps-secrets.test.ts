// kubectl with ConfigMaps and Secrets: the create generators (sent as protobuf), kube's columns, describe, an edit,
// immutability, the 1 MiB limit, field selectors and explain, against `kapi serve`.
import test from 'ava';
import { chmodSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, eventually, removeDir, table, tempDir, tempFile as file, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi();

test.serial('kubectl create configmap --from-literal/--from-file (a protobuf round trip); get prints NAME, DATA, AGE', async (t) => {
  const binary = Buffer.from([0, 1, 2, 0xfe, 0xff]);
  // kubectl's create generators send the object as protobuf and decode kapi's protobuf answer before printing it.
  const create = await kapi.kubectl([
    'create', 'configmap', 'app', '--from-literal=mode=fast', `--from-file=${file('app.conf', 'x = 1\n')}`, `--from-file=${file('blob.bin', binary)}`, '-o', 'json',
  ]);
  t.is(create.code, 0, describe(create));
  const printed = JSON.parse(create.stdout);
  t.deepEqual(printed.data, { mode: 'fast', 'app.conf': 'x = 1\n' });
  t.deepEqual(printed.binaryData, { 'blob.bin': binary.toString('base64') });
  const stored = JSON.parse((await kapi.kubectl(['get', 'configmap', 'app', '-o', 'json'])).stdout);
  t.deepEqual(printed, stored);
  const get = await kapi.kubectl(['get', 'cm']);
  const rows = table(get.stdout);
  t.deepEqual(rows[0], ['NAME', 'DATA', 'AGE'], describe(get));
  t.deepEqual(rows.slice(1).map((r) => r.slice(0, 2)), [['app', '3']]);
});

test.serial('kubectl create secret generic, tls and docker-registry; get prints NAME, TYPE, DATA, AGE and never the data', async (t) => {
  const dir = tempDir('kapi-tls-');
  t.teardown(() => removeDir(dir));
  const cert = join(dir, 'tls.crt');
  const key = join(dir, 'tls.key');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-subj', '/CN=example.com', '-days', '1'], { stdio: 'ignore' });
  const commands = [
    ['create', 'secret', 'generic', 'creds', '--from-literal=user=admin', `--from-file=token=${file('token.txt', 'very-secret-token')}`],
    ['create', 'secret', 'tls', 'web', `--cert=${cert}`, `--key=${key}`],
    ['create', 'secret', 'docker-registry', 'pull', '--docker-server=registry.example.com', '--docker-username=u', '--docker-password=very-secret-password'],
  ];
  for (const args of commands) {
    const res = await kapi.kubectl(args);
    t.is(res.code, 0, describe(res));
    t.is(res.stderr, '', 'no warning');
  }
  const get = await kapi.kubectl(['get', 'secrets']);
  const rows = table(get.stdout);
  t.deepEqual(rows[0], ['NAME', 'TYPE', 'DATA', 'AGE'], describe(get));
  t.deepEqual(
    rows.slice(1).map((r) => r.slice(0, 3)),
    [
      ['creds', 'Opaque', '2'],
      ['pull', 'kubernetes.io/dockerconfigjson', '1'],
      ['web', 'kubernetes.io/tls', '2'],
    ],
  );
  t.false(get.stdout.includes(Buffer.from('very-secret-token').toString('base64')));
  const wide = await kapi.kubectl(['get', 'secrets', '-o', 'wide', '--show-labels']);
  t.false(wide.stdout.includes('very-secret'), describe(wide));
  const tls = await kapi.kubectl(['get', 'secrets', '--field-selector', 'type=kubernetes.io/tls', '-o', 'name']);
  t.is(tls.stdout, 'secret/web\n', describe(tls));
  const token = await kapi.kubectl(['get', 'secret', 'creds', '-o', 'jsonpath={.data.token}']);
  t.is(Buffer.from(token.stdout, 'base64').toString(), 'very-secret-token');
  const auths = await kapi.kubectl(['get', 'secret', 'pull', '-o', 'jsonpath={.data.\\.dockerconfigjson}']);
  t.truthy(JSON.parse(Buffer.from(auths.stdout, 'base64').toString()).auths['registry.example.com'], describe(auths));
});

test.serial('kubectl describe shows the sizes of a Secret\'s values, and a ConfigMap\'s data', async (t) => {
  const secret = await kapi.kubectl(['describe', 'secret', 'creds']);
  t.is(secret.code, 0, describe(secret));
  t.regex(secret.stdout, /^Name:\s+creds\nNamespace:\s+default\n/);
  // kubectl prints the keys in Go's map order, which is random.
  t.regex(secret.stdout, /\nType:\s+Opaque\n\nData\n====\n/);
  t.regex(secret.stdout, /\ntoken:\s+17 bytes\n/);
  t.regex(secret.stdout, /\nuser:\s+5 bytes\n/);
  t.false(secret.stdout.includes('very-secret-token'));
  // kube's ConfigMap describer also lists the object's events (none here)
  const cm = await kapi.kubectl(['describe', 'configmap', 'app']);
  t.is(cm.code, 0, describe(cm));
  t.regex(cm.stdout, /\nData\n====\n/);
  t.regex(cm.stdout, /\napp\.conf:\n----\nx = 1\n\n/);
  t.regex(cm.stdout, /\nmode:\n----\nfast\n/);
  t.regex(cm.stdout, /\nBinaryData\n====\nblob\.bin: 5 bytes\n/);
  t.regex(cm.stdout, /\nEvents:\s+<none>\n$/);
});

test.serial('kubectl edit changes a value; once immutable, the data is refused with kube\'s message', async (t) => {
  const editor = file('editor.sh', '#!/bin/sh\nsed -i "s/^  mode: fast$/  mode: slow/" "$1"\n');
  chmodSync(editor, 0o755);
  const edit = await kapi.kubectl(['edit', 'configmap', 'app'], { env: { KUBE_EDITOR: editor } });
  t.is(edit.code, 0, describe(edit));
  t.is(edit.stdout, 'configmap/app edited\n');
  const mode = await kapi.kubectl(['get', 'cm', 'app', '-o', 'jsonpath={.data.mode}']);
  t.is(mode.stdout, 'slow');
  const freeze = await kapi.kubectl(['patch', 'configmap', 'app', '-p', '{"immutable":true}']);
  t.is(freeze.code, 0, describe(freeze));
  const change = await kapi.kubectl(['patch', 'configmap', 'app', '-p', '{"data":{"mode":"fast"}}']);
  t.is(change.code, 1, describe(change));
  t.is(change.stderr, 'The ConfigMap "app" is invalid: data: Forbidden: field is immutable when `immutable` is set\n');
  const label = await kapi.kubectl(['label', 'configmap', 'app', 'tier=web']);
  t.is(label.code, 0, describe(label));
});

test.serial('a ConfigMap over 1 MiB and a Secret missing its type\'s keys are refused with kube\'s messages', async (t) => {
  const big = await kapi.kubectl(['create', 'configmap', 'big', `--from-file=${file('big.txt', 'x'.repeat(2 * 1024 * 1024))}`]);
  t.is(big.code, 1, describe(big));
  t.is(big.stderr, 'error: failed to create configmap: ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes\n');
  const tls = await kapi.kubectl(['create', '-f', '-'], { stdin: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: half\ntype: kubernetes.io/tls\nstringData:\n  tls.crt: x\n' });
  t.is(tls.code, 1, describe(tls));
  t.is(tls.stderr, 'The Secret "half" is invalid: data[tls.key]: Required value\n');
});

test.serial('kubectl explain configmap.data and secret.stringData from the published OpenAPI', async (t) => {
  const data = await kapi.kubectl(['explain', 'configmap.data']);
  t.is(data.code, 0, describe(data));
  t.regex(data.stdout, /^KIND:\s+ConfigMap\nVERSION:\s+v1\n\nFIELD: data <map\[string\]string>\n/);
  t.regex(data.stdout, /Data contains the configuration data\./);
  const stringData = await kapi.kubectl(['explain', 'secret.stringData']);
  t.regex(stringData.stdout, /FIELD: stringData <map\[string\]string>/, describe(stringData));
  t.regex(stringData.stdout, /never output when reading/);
});

test.serial('a ValidatingAdmissionPolicy takes its params from a ConfigMap, as in kube\'s own examples', async (t) => {
  const apply = await kapi.kubectl(['apply', '-f', '-'], {
    stdin: `apiVersion: v1
kind: ConfigMap
metadata:
  name: limits
  namespace: default
data:
  maxKeys: "2"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-keys
spec:
  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["secrets"]
  validations:
  - expression: "!has(object.data) || object.data.size() <= int(params.data.maxKeys)"
    message: too many keys
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-keys
spec:
  policyName: max-keys
  validationActions: [Deny]
  paramRef:
    name: limits
    namespace: default
    parameterNotFoundAction: Deny
`,
  });
  t.is(apply.code, 0, describe(apply));
  // A server-side dry run until the binding is in force, so that nothing is stored before.
  const denied = await eventually(
    () => kapi.kubectl(['create', 'secret', 'generic', 'three', '--from-literal=a=1', '--from-literal=b=2', '--from-literal=c=3', '--dry-run=server']),
    (r) => r.code !== 0,
  );
  t.is(
    denied.stderr,
    'error: failed to create secret secrets "three" is forbidden: ValidatingAdmissionPolicy \'max-keys\' with binding \'max-keys\' denied request: too many keys\n',
  );
  const allowed = await kapi.kubectl(['create', 'secret', 'generic', 'two', '--from-literal=a=1', '--from-literal=b=2']);
  t.is(allowed.code, 0, describe(allowed));
  const removed = await kapi.kubectl(['delete', 'validatingadmissionpolicybinding', 'max-keys']);
  t.is(removed.code, 0, describe(removed));
});
