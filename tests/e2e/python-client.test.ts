// The official Kubernetes Python client (Debian's python3-kubernetes) against `kapi serve` over TLS with the admin
// kubeconfig: lists and watches (typed, custom objects, dynamic), a watch resumed after 410 Gone, errors, and Leases
// and Events through the typed APIs.
import test from 'ava';
import { describe, removeDir, setUpWidgets, startKapi, tempDir, type KapiProcess } from '../helpers/kapi-process.js';
import { pythonClientTests, runPythonScenario } from '../helpers/python-client.js';

pythonClientTests(() => {
  const dataDir = tempDir('kapi-e2e-python-');
  let kapi: KapiProcess | undefined;

  test.serial.before(async () => {
    kapi = await startKapi({ dataDir });
    await setUpWidgets(kapi, 'py-widgets');
  });

  test.after.always(async () => {
    await kapi?.stop();
    removeDir(dataDir);
  });

  async function kubectl(args: string[], stdin?: string): Promise<string> {
    const res = await kapi!.kubectl(args, { stdin });
    if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
    return res.stdout;
  }

  const widgetYaml = (name: string) => `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n  color: blue\n`;

  test.serial('CoreV1Api: watch.Watch().stream() from a list\'s resourceVersion sees a namespace created while it runs', async (t) => {
    const out = await runPythonScenario(kapi!.kubeconfig, 'typed-watch', 'py-typed');
    t.deepEqual(out, { listed: [], events: [['ADDED', 'py-typed-typed', 'V1Namespace']], errors: [] });
  });

  test.serial('DynamicClient: resource.watch() from a list\'s resourceVersion sees a widget created while it runs', async (t) => {
    await kubectl(['create', 'namespace', 'py-dynamic']);
    await kubectl(['-n', 'py-dynamic', 'create', '-f', '-'], widgetYaml('before'));
    const out = await runPythonScenario(kapi!.kubeconfig, 'dynamic-watch', 'py-dynamic');
    t.deepEqual(out, { listed: ['before'], events: [['ADDED', 'dynamic', 'ResourceInstance']], errors: [] });
  });

  test.serial('failures are ApiException with kube\'s codes and Status bodies: 404 NotFound, 409 AlreadyExists, 422 Invalid with causes', async (t) => {
    await kubectl(['create', 'namespace', 'py-errors']);
    const out = await runPythonScenario(kapi!.kubeconfig, 'errors', 'py-errors');
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
    t.deepEqual(out['not found'], {
      raised: true,
      status: 404,
      body: { ...status, message: 'namespaces "python-e2e-missing" not found', reason: 'NotFound', details: { name: 'python-e2e-missing', kind: 'namespaces' }, code: 404 },
    });
    t.deepEqual(out['already exists'], {
      raised: true,
      status: 409,
      body: { ...status, message: 'namespaces "py-errors" already exists', reason: 'AlreadyExists', details: { name: 'py-errors', kind: 'namespaces' }, code: 409 },
    });
    // The schema's minimum, then the scale subresource's own check of its replicas field.
    const schema = 'Invalid value: -2: spec.replicas in body should be greater than or equal to 0';
    const scale = 'Invalid value: -2: should be a non-negative integer';
    t.deepEqual(out.invalid, {
      raised: true,
      status: 422,
      body: {
        ...status,
        message: `Widget.example.com "bad" is invalid: [spec.replicas: ${schema}, .spec.replicas: ${scale}]`,
        reason: 'Invalid',
        details: {
          name: 'bad',
          group: 'example.com',
          kind: 'Widget',
          causes: [
            { reason: 'FieldValueInvalid', message: schema, field: 'spec.replicas' },
            { reason: 'FieldValueInvalid', message: scale, field: '.spec.replicas' },
          ],
        },
        code: 422,
      },
    });
  });

  // Last: it restarts the server. A restarted server's watch cache begins at the current revision, as
  // kube-apiserver's does, so a watch resumed from an older resourceVersion is 410 Gone.
  test.serial('a watch from a resourceVersion older than the server\'s history is 410 Gone; listing again and watching on works', async (t) => {
    await kubectl(['create', 'namespace', 'py-gone']);
    const staleRv = await kubectl(['-n', 'py-gone', 'create', '-f', '-', '-o', 'jsonpath={.metadata.resourceVersion}'], widgetYaml('w1'));
    await kubectl(['-n', 'py-gone', 'create', '-f', '-'], widgetYaml('w2'));
    await kapi!.stop();
    kapi = await startKapi({ dataDir });

    const out = await runPythonScenario(kapi.kubeconfig, 'resume-after-gone', 'py-gone', staleRv);
    t.is(out.gone?.status, 410, JSON.stringify(out));
    t.regex(out.gone?.reason ?? '', new RegExp(`^Expired: too old resource version: ${staleRv} \\(\\d+\\)$`));
    t.deepEqual(out.listed, ['w1', 'w2']);
    t.deepEqual(out.events, [['ADDED', 'resumed', 'dict']]);
    t.deepEqual(out.errors, []);
  });

  test.serial('CoordinationV1Api and the Event APIs: MicroTimes round-trip, a stale Lease update is a 409, one Event in both groups', async (t) => {
    await kubectl(['create', 'namespace', 'py-leases']);
    const out = await runPythonScenario(kapi!.kubeconfig, 'leases-and-events', 'py-leases');
    t.deepEqual(out, {
      renewTime: '2026-01-02T03:04:06.123456+00:00',
      holder: 'py-a',
      staleUpdate: 409,
      selected: ['py-event', 'py-modern'],
      message: 'from events.k8s.io',
      involvedObject: 'w2',
      reportingComponent: 'example.com/py',
      eventTime: '2026-01-02T03:04:05.123456+00:00',
    });
  });
});
