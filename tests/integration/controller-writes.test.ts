// Controllers and the CRD file loader write through the generic store, as kube's controllers write through a loopback
// client: admission sees their writes, managed fields record them, validation refuses what is invalid.
import test from 'ava';
import type { DependencyContainer } from 'tsyringe';
import { readFileSync, rmSync } from 'node:fs';
import { ApiError, defineAdmissionPlugin, Tokens, type Controller, type KubeObject, type Module, type ResourceClient } from '../../index.js';
import { createNamespace, createWidget, installWidgetsCrd, startTestServer, waitFor, widgetsPath, type TestServer } from '../helpers/test-server.js';
import { repoPath, tempFile } from '../helpers/kapi-process.js';

const crdFile = repoPath('examples/crd-only/widgets-crd.yaml');
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com';

interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  subresource?: string;
}

/** An admission plugin that records every write of a CRD it sees. */
function crdWriteRecorder(seen: string[]): Module {
  const plugin = defineAdmissionPlugin({
    name: 'CrdWriteRecorder',
    operations: ['CREATE', 'UPDATE'],
    rules: [{ apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions', 'customresourcedefinitions/status'] }],
    sideEffects: 'None',
    validate(attrs) {
      seen.push(`${attrs.operation} ${attrs.subresource || '-'} ${attrs.userInfo.username}`);
    },
  });
  return (c) => c.register(Tokens.AdmissionPlugin, { useValue: plugin });
}

async function closing<T>(server: TestServer, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    await server.close();
  }
}

test('a CRD file is installed through admission and the field manager; the CRD controller writes its status the same way', async (t) => {
  const seen: string[] = [];
  const server = await startTestServer({ storage: 'memory', crdPaths: [crdFile], modules: [crdWriteRecorder(seen)] });
  await closing(server, async () => {
    t.true(seen.includes('CREATE - system:kapi'), seen.join('; '));
    const crd = await waitFor(async () => {
      const res = await server.request('GET', crdPath);
      const established = res.body.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True');
      return established ? res.body : undefined;
    });
    const entries = crd.metadata.managedFields as ManagedFieldsEntry[];
    t.true(entries.some((e) => e.manager === 'kapi' && e.operation === 'Update' && !e.subresource), JSON.stringify(entries));
    t.true(entries.some((e) => e.manager === 'kapi' && e.operation === 'Update' && e.subresource === 'status'), JSON.stringify(entries));
    t.true(seen.includes('UPDATE status system:apiserver'), seen.join('; '));
  });
});

test('a CRD file that is invalid stops the start with kube\'s validation message', async (t) => {
  const bad = tempFile('bad-crd.yaml', readFileSync(crdFile, 'utf8').replace('scope: Namespaced', 'scope: Bogus'));
  try {
    const err = await t.throwsAsync(startTestServer({ storage: 'memory', crdPaths: [bad] }));
    t.regex(err!.message, /^installing CRD widgets\.example\.com: CustomResourceDefinition\.apiextensions\.k8s\.io "widgets\.example\.com" is invalid: spec\.scope: Unsupported value: "Bogus"/);
  } finally {
    rmSync(bad, { force: true });
  }
});

test('a CRD file whose metadata does not decode stops the start with kube\'s decoding message', async (t) => {
  const bad = tempFile('bad-crd.yaml', readFileSync(crdFile, 'utf8').replace('  name: widgets.example.com', '  name: widgets.example.com\n  labels: abc'));
  try {
    const err = await t.throwsAsync(startTestServer({ storage: 'memory', crdPaths: [bad] }));
    t.regex(err!.message, /^installing CRD widgets\.example\.com: CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal string into Go struct field ObjectMeta\.metadata\.labels of type map\[string\]string/);
  } finally {
    rmSync(bad, { force: true });
  }
});

test('a user controller reads and writes through Tokens.Objects: system metadata, validation, 404 for a resource not served', async (t) => {
  let namespaces!: ResourceClient;
  const results: { created?: KubeObject; updated?: KubeObject; invalid?: unknown; unserved?: unknown } = {};
  const controller = (c: DependencyContainer): Controller => ({
    name: 'test-controller',
    async start() {
      namespaces = c.resolve(Tokens.Objects).forResource({ group: '', resource: 'namespaces' });
      results.created = await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'from-controller' } });
      results.updated = await namespaces.update('', 'from-controller', (ns) => ({ ...ns, metadata: { ...ns.metadata, labels: { team: 'a' } } }));
      results.invalid = await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'Not_A_Name' } }).catch((err: unknown) => err);
      results.unserved = await Promise.resolve()
        .then(() => c.resolve(Tokens.Objects).forResource({ group: 'example.com', resource: 'gadgets' }))
        .catch((err: unknown) => err);
    },
    async stop() {},
  });
  const module: Module = (c) => c.register(Tokens.Controller, { useValue: controller(c) });
  const server = await startTestServer({ storage: 'memory', modules: [module] });
  await closing(server, async () => {
    t.truthy(results.created?.metadata?.uid);
    t.truthy(results.created?.metadata?.creationTimestamp);
    t.deepEqual(results.updated?.metadata?.labels, { team: 'a', 'kubernetes.io/metadata.name': 'from-controller' });
    t.true(results.invalid instanceof ApiError);
    t.is((results.invalid as ApiError).code, 422);
    t.is((results.unserved as ApiError).code, 404);
    const res = await server.request('GET', '/api/v1/namespaces/from-controller');
    t.is(res.status, 200);
    t.deepEqual(res.body.metadata.labels, results.updated?.metadata?.labels);
    t.is(res.body.metadata.resourceVersion, results.updated?.metadata?.resourceVersion);
    t.deepEqual(await namespaces.get('', 'nothing-here'), undefined);
  });
});

test('deleting a CRD deletes its objects as kube does, in storage: an admission plugin refusing their deletion cannot hold it back', async (t) => {
  const refuseDeletes = defineAdmissionPlugin({
    name: 'RefuseWidgetDeletes',
    operations: ['DELETE'],
    rules: [{ apiGroups: ['example.com'], resources: ['widgets'] }],
    sideEffects: 'None',
    validate(attrs) {
      throw new ApiError(403, 'Forbidden', `no deleting ${attrs.name}`);
    },
  });
  const server = await startTestServer({ storage: 'memory', modules: [(c) => c.register(Tokens.AdmissionPlugin, { useValue: refuseDeletes })] });
  await closing(server, async () => {
    await installWidgetsCrd(server);
    const ns = await createNamespace(server, 'crd-gone');
    await createWidget(server, ns, 'w1');
    t.is((await server.request('DELETE', widgetsPath(ns, 'w1'))).status, 403, 'the plugin refuses deletes through the API');
    t.is((await server.request('DELETE', crdPath)).status, 200);
    await waitFor(async () => (await server.request('GET', crdPath)).status === 404, 10_000, 'the CRD to go');
    t.is((await server.request('GET', '/apis/example.com/v1/widgets')).status, 404);
  });
});
