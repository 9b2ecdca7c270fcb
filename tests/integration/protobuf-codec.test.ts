// Kubernetes protobuf over real HTTPS: bodies in, responses and watch streams out, read with protobufjs reflection of
// kube's messages (not kapi's converter), and refusals as Status.
import test from 'ava';
import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import protobuf from 'protobufjs';
import { createNamespace, suffix, useTestServer, type TestServer } from '../helpers/test-server.js';
import { admissionregistrationMutatingPolicyProto } from '../../plugins/codecs/protobuf/protos/admissionregistration-policy-messages.js';
import { admissionregistrationV1Proto } from '../../plugins/codecs/protobuf/protos/admissionregistration-v1.js';
import { apiextensionsV1Proto } from '../../plugins/codecs/protobuf/protos/apiextensions-v1.js';
import { coreV1Proto } from '../../plugins/codecs/protobuf/protos/core-v1.js';
import { metaV1Proto } from '../../plugins/codecs/protobuf/protos/meta-v1.js';
import { runtimeProto } from '../../plugins/codecs/protobuf/protos/runtime.js';
import { sendBinary, type BinaryRequest } from '../helpers/binary-request.js';

const server = useTestServer({ widgetsCrd: true });
const pbType = 'application/vnd.kubernetes.protobuf';

const root = new protobuf.Root();
for (const text of [
  runtimeProto,
  metaV1Proto,
  coreV1Proto,
  apiextensionsV1Proto,
  admissionregistrationV1Proto,
  admissionregistrationMutatingPolicyProto('v1beta1'),
  admissionregistrationMutatingPolicyProto('v1alpha1'),
]) {
  protobuf.parse(text, root, { keepCase: true });
}
root.resolveAll();
const type = (name: string) => root.lookupType(name);
const Unknown = type('k8s.io.apimachinery.pkg.runtime.Unknown');
const WatchEvent = type('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent');
const Namespace = type('k8s.io.api.core.v1.Namespace');
const NamespaceList = type('k8s.io.api.core.v1.NamespaceList');
const Status = type('k8s.io.apimachinery.pkg.apis.meta.v1.Status');

/** magic + Unknown{typeMeta, raw}, written with the independent reflection. */
function envelope(apiVersion: string, kind: string, message: protobuf.Type, value: object): Buffer {
  const raw = message.encode(message.fromObject(value)).finish();
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), Unknown.encode({ typeMeta: { apiVersion, kind }, raw }).finish()]);
}

interface Unwrapped {
  apiVersion: string;
  kind: string;
  object: any;
}

/** Reads magic + Unknown and the object inside with the independent reflection. */
function unwrap(bytes: Uint8Array, message?: protobuf.Type): Unwrapped {
  if (Buffer.from(bytes.subarray(0, 4)).toString('latin1') !== 'k8s\0') throw new Error(`no k8s\\0 prefix: ${Buffer.from(bytes).toString('hex').slice(0, 40)}`);
  const unknown = Unknown.decode(bytes.subarray(4)) as any;
  const object = message ? message.toObject(message.decode(unknown.raw), { longs: Number }) : undefined;
  return { apiVersion: unknown.typeMeta.apiVersion, kind: unknown.typeMeta.kind, object };
}

interface BinaryResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An HTTPS request with a binary body (protobuf unless said otherwise) and a binary answer. */
async function send(s: TestServer, method: string, path: string, opts: BinaryRequest = {}): Promise<BinaryResponse> {
  const res = await sendBinary(s, method, path, { ...opts, contentType: opts.contentType ?? pbType });
  return { status: res.status, headers: res.headers, body: res.bytes };
}

/** A protobuf watch: frames are cut from the byte stream as they arrive, whatever the chunking. */
function watch(s: TestServer, path: string): Promise<{ headers: IncomingHttpHeaders; next(): Promise<{ type: string; object: Uint8Array }>; close(): void }> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, method: 'GET', path, ca: s.ca, headers: { authorization: `Bearer ${s.token}`, accept: pbType }, agent: false });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      let buffered = Buffer.alloc(0);
      const frames: Buffer[] = [];
      const waiters: ((f: Buffer) => void)[] = [];
      res.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        while (buffered.length >= 4 && buffered.length >= 4 + buffered.readUInt32BE(0)) {
          const len = buffered.readUInt32BE(0);
          const frame = buffered.subarray(4, 4 + len);
          buffered = buffered.subarray(4 + len);
          const waiter = waiters.shift();
          if (waiter) waiter(frame);
          else frames.push(frame);
        }
      });
      res.on('error', () => undefined);
      resolve({
        headers: res.headers,
        next: () =>
          new Promise((res2, rej2) => {
            const timer = setTimeout(() => rej2(new Error('no watch event within 10 s')), 10_000);
            const take = (f: Buffer) => {
              clearTimeout(timer);
              const e = WatchEvent.decode(f) as any;
              res2({ type: e.type, object: e.object.raw });
            };
            const ready = frames.shift();
            if (ready) take(ready);
            else waiters.push(take);
          }),
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}

test('a namespace created from a protobuf body is served back as protobuf, alone and in the list', async (t) => {
  const name = `pb-${suffix()}`;
  const created = await send(server, 'POST', '/api/v1/namespaces', {
    body: envelope('v1', 'Namespace', Namespace, { metadata: { name, labels: { team: 'blue' } }, spec: {}, status: {} }),
    accept: pbType,
  });
  t.is(created.status, 201, created.body.toString());
  t.is(created.headers['content-type'], pbType);
  const ns = unwrap(created.body, Namespace);
  t.deepEqual([ns.apiVersion, ns.kind], ['v1', 'Namespace']);
  t.is(ns.object.metadata.name, name);
  t.deepEqual(ns.object.metadata.labels, { team: 'blue', 'kubernetes.io/metadata.name': name });
  t.truthy(ns.object.metadata.uid);
  t.true(ns.object.metadata.creationTimestamp.seconds > 1_700_000_000);
  t.is(ns.object.status.phase, 'Active');

  const got = await send(server, 'GET', `/api/v1/namespaces/${name}`, { accept: pbType });
  t.is(got.status, 200);
  t.deepEqual(unwrap(got.body, Namespace).object, ns.object);

  const list = await send(server, 'GET', '/api/v1/namespaces', { accept: `${pbType}, application/json` });
  t.is(list.headers['content-type'], pbType);
  const l = unwrap(list.body, NamespaceList);
  t.is(l.kind, 'NamespaceList');
  t.truthy(l.object.metadata.resourceVersion);
  t.true(l.object.items.some((i: any) => i.metadata.name === name));

  // The same object as JSON, for comparison: what the protobuf said is what the JSON says.
  const json = await server.request('GET', `/api/v1/namespaces/${name}`);
  t.is(json.body.metadata.uid, ns.object.metadata.uid);
  t.is(json.body.metadata.resourceVersion, ns.object.metadata.resourceVersion);
});

test('errors answer a protobuf Status; a body without the magic prefix is a 400', async (t) => {
  const missing = await send(server, 'GET', '/api/v1/namespaces/does-not-exist', { accept: pbType });
  t.is(missing.status, 404);
  const st = unwrap(missing.body, Status);
  t.deepEqual([st.apiVersion, st.kind], ['v1', 'Status']);
  t.like(st.object, { status: 'Failure', reason: 'NotFound', code: 404, message: 'namespaces "does-not-exist" not found' });

  const bad = await send(server, 'POST', '/api/v1/namespaces', { body: '{"kind":"Namespace","apiVersion":"v1"}', accept: 'application/json' });
  t.is(bad.status, 400);
  t.like(JSON.parse(bad.body.toString()), {
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type Namespace): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"Namespace","apiVersio ...)',
  });
  const truncated = envelope('v1', 'Namespace', Namespace, { metadata: { name: 'cut' } }).subarray(0, 20);
  const cut = await send(server, 'POST', '/api/v1/namespaces', { body: truncated, accept: 'application/json' });
  t.is(cut.status, 400);
  t.is(JSON.parse(cut.body.toString()).reason, 'BadRequest');
});

test('custom resources without protobuf field numbers: JSON fallback, 406 when only protobuf is acceptable', async (t) => {
  const ns = await createNamespace(server, 'pbcr');
  const fallback = await send(server, 'GET', `/apis/example.com/v1/namespaces/${ns}/widgets`, { accept: `${pbType}, application/json` });
  t.is(fallback.status, 200);
  t.regex(String(fallback.headers['content-type']), /^application\/json/);
  t.is(JSON.parse(fallback.body.toString()).kind, 'WidgetList');
  const refused = await send(server, 'GET', `/apis/example.com/v1/namespaces/${ns}/widgets`, { accept: pbType });
  t.is(refused.status, 406);
});

test('CRDs, webhook configurations and policies go in and out as protobuf', async (t) => {
  const id = suffix();
  const crdName = `gadgets${id}.example.com`;
  const created = await send(server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: envelope('apiextensions.k8s.io/v1', 'CustomResourceDefinition', type('k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition'), {
      metadata: { name: crdName },
      spec: {
        group: 'example.com',
        names: { plural: `gadgets${id}`, kind: `Gadget${id}` },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', properties: { size: { type: 'integer', maximum: 10, default: { raw: Buffer.from('3') } } }, xKubernetesPreserveUnknownFields: true } },
              },
            },
          },
        ],
      },
    }),
    accept: 'application/json',
  });
  t.is(created.status, 201, created.body.toString());
  const crd = JSON.parse(created.body.toString());
  t.deepEqual(crd.spec.versions[0].schema.openAPIV3Schema.properties.spec, {
    type: 'object',
    properties: { size: { type: 'integer', default: 3, maximum: 10 } },
    'x-kubernetes-preserve-unknown-fields': true,
  });

  const vwcType = type('k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration');
  const vwc = await send(server, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
    body: envelope('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', vwcType, {
      metadata: { name: `pb-${id}` },
      Webhooks: [
        {
          name: 'never.example.com',
          clientConfig: { url: 'https://127.0.0.1:1/never' },
          rules: [{ operations: ['CREATE'], rule: { apiGroups: ['example.com'], apiVersions: ['v1'], resources: [`gadgets${id}`] } }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          objectSelector: { matchLabels: { never: 'true' } },
        },
      ],
    }),
    accept: pbType,
  });
  t.is(vwc.status, 201, vwc.body.toString());
  const back = unwrap(vwc.body, vwcType).object;
  const hook = back.Webhooks[0];
  t.deepEqual(hook.rules[0].rule, { apiGroups: ['example.com'], apiVersions: ['v1'], resources: [`gadgets${id}`], scope: '*' }, 'defaulted scope');
  t.is(hook.failurePolicy, 'Fail', 'defaulted');
  t.is(hook.timeoutSeconds, 10, 'defaulted');

  const vap = await send(server, 'GET', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', { accept: pbType });
  t.is(vap.status, 200);
  t.is(unwrap(vap.body).kind, 'ValidatingAdmissionPolicyList');
});

test('mutating admission policies and bindings go in and out as protobuf, in each served version', async (t) => {
  for (const version of ['v1', 'v1beta1', 'v1alpha1']) {
    const apiVersion = `admissionregistration.k8s.io/${version}`;
    const pkg = `k8s.io.api.admissionregistration.${version}`;
    const name = `pb-${version}-${suffix()}`;
    const mapType = type(`${pkg}.MutatingAdmissionPolicy`);
    const created = await send(server, 'POST', `/apis/${apiVersion}/mutatingadmissionpolicies`, {
      body: envelope(apiVersion, 'MutatingAdmissionPolicy', mapType, {
        metadata: { name },
        spec: {
          matchConstraints: { resourceRules: [{ ruleWithOperations: { operations: ['CREATE'], rule: { apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] } } }] },
          variables: [{ Name: 'n', Expression: 'object.metadata.name' }],
          reinvocationPolicy: 'IfNeeded',
          mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/x", value: "y"}]' } }],
        },
      }),
      accept: pbType,
    });
    t.is(created.status, 201, created.body.toString());
    const back = unwrap(created.body, mapType);
    t.is(back.apiVersion, apiVersion);
    t.is(back.kind, 'MutatingAdmissionPolicy');
    t.like(back.object.spec, { failurePolicy: 'Fail', reinvocationPolicy: 'IfNeeded' }, 'failurePolicy defaulted');
    t.deepEqual(back.object.spec.mutations, [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/x", value: "y"}]' } }]);
    t.deepEqual(back.object.spec.variables, [{ Name: 'n', Expression: 'object.metadata.name' }]);
    t.is(back.object.spec.matchConstraints.resourceRules[0].ruleWithOperations.rule.scope, '*');
    const asJson = await server.request('GET', `/apis/${apiVersion}/mutatingadmissionpolicies/${name}`);
    t.deepEqual(asJson.body.spec.variables, [{ name: 'n', expression: 'object.metadata.name' }]);

    const bindingType = type(`${pkg}.MutatingAdmissionPolicyBinding`);
    const b = await send(server, 'POST', `/apis/${apiVersion}/mutatingadmissionpolicybindings`, {
      body: envelope(apiVersion, 'MutatingAdmissionPolicyBinding', bindingType, { metadata: { name }, spec: { policyName: name, paramRef: { name: 'cfg', parameterNotFoundAction: 'Deny' } } }),
      accept: pbType,
    });
    t.is(b.status, 201, b.body.toString());
    // Go writes a non-pointer string even when empty (paramRef.namespace)
    t.deepEqual(unwrap(b.body, bindingType).object.spec, { policyName: name, paramRef: { name: 'cfg', namespace: '', parameterNotFoundAction: 'Deny' } });

    const list = await send(server, 'GET', `/apis/${apiVersion}/mutatingadmissionpolicybindings`, { accept: pbType });
    const items = unwrap(list.body, type(`${pkg}.MutatingAdmissionPolicyBindingList`));
    t.is(items.kind, 'MutatingAdmissionPolicyBindingList');
    t.true(items.object.items.some((i: { metadata: { name: string } }) => i.metadata.name === name));
  }
});

test('a protobuf watch: 4-byte length frames of bare WatchEvents carrying enveloped objects', async (t) => {
  const list = unwrap((await send(server, 'GET', '/api/v1/namespaces', { accept: pbType })).body, NamespaceList);
  const name = `pbw-${suffix()}`;
  const w = await watch(server, `/api/v1/namespaces?watch=1&resourceVersion=${list.object.metadata.resourceVersion}`);
  try {
    t.is(w.headers['content-type'], 'application/vnd.kubernetes.protobuf;stream=watch');
    await server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
    await server.request('PATCH', `/api/v1/namespaces/${name}`, { body: { metadata: { labels: { step: 'two' } } }, contentType: 'application/merge-patch+json' });
    await server.request('DELETE', `/api/v1/namespaces/${name}`);
    const seen: { type: string; labels?: Record<string, string>; phase?: string }[] = [];
    while (!seen.some((e) => e.type === 'DELETED')) {
      const e = await w.next();
      const obj = unwrap(e.object, Namespace);
      t.deepEqual([obj.apiVersion, obj.kind], ['v1', 'Namespace']);
      if (obj.object.metadata.name === name) seen.push({ type: e.type, labels: obj.object.metadata.labels, phase: obj.object.status?.phase });
    }
    t.is(seen[0].type, 'ADDED');
    t.true(seen.some((e) => e.type === 'MODIFIED' && e.labels?.step === 'two'));
    t.is(seen.at(-1)!.type, 'DELETED');
  } finally {
    w.close();
  }
});
