// Admission webhooks with the real kubectl against `kapi serve`: configurations applied with caBundle and listed,
// a validating webhook's denial printed by kubectl, a mutating webhook's patch visible in `get -o yaml`, and a dry
// run refused by a webhook with side effects.
import test from 'ava';
import { join } from 'node:path';
import { SqliteKV } from '../../plugins/storage/index.js';
import { ResourceStore } from '../../core/store/resource-store.js';
import { validatingWebhookConfigurationResource } from '../../builtin/admissionregistration/webhook-configuration-resources.js';
import { describe, eventually, removeDir, row, table, tempDir, useKapi } from '../helpers/kapi-process.js';
import { admissionResponse, allow, patch, startWebhookServer, type TestWebhookServer } from '../helpers/webhook-server.js';

const dataDir = tempDir('kapi-e2e-webhooks-');
let hooks: TestWebhookServer;

/**
 * Before kapi starts: the webhook server, and a ValidatingWebhookConfiguration with sideEffects Some written straight
 * to the SQLite file, as one created through kube's old v1beta1 API would be (v1 refuses to create it).
 */
test.serial.before(async () => {
  hooks = await startWebhookServer();
  hooks.handle('/side-effects', allow);
  const kv = new SqliteKV(join(dataDir, 'kapi.db'));
  const rt = validatingWebhookConfigurationResource(() => undefined);
  await new ResourceStore(kv, rt).create({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'legacy-side-effects', uid: crypto.randomUUID(), creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), generation: 1 },
    webhooks: [
      {
        name: 'side-effects.kapi.test',
        clientConfig: { url: hooks.url('/side-effects'), caBundle: hooks.caBundle },
        rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], scope: '*' }],
        objectSelector: { matchLabels: { effects: 'some' } },
        namespaceSelector: {},
        sideEffects: 'Some',
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        timeoutSeconds: 10,
        admissionReviewVersions: ['v1'],
      },
    ],
  });
  await kv.close();
});

const kapi = useKapi({ dataDir, widgets: true });

test.after.always(async () => {
  await hooks?.close();
  removeDir(dataDir);
});

const widgetYaml = (name: string, color: string, labels = '') => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: ${name}
${labels ? `  labels:\n${labels}` : ''}spec:
  color: ${color}
  replicas: 1
`;

test.serial('a ValidatingWebhookConfiguration applied with kubectl refuses what its webhook denies, as kubectl prints it', async (t) => {
  hooks.handle('/no-red', (review, path) =>
    review.request.object.spec.color === 'red'
      ? admissionResponse(review, { allowed: false, status: { message: 'red widgets are not allowed' } })
      : allow(review, path),
  );
  const config = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: no-red
webhooks:
  - name: no-red.kapi.test
    clientConfig:
      url: ${hooks.url('/no-red')}
      caBundle: ${hooks.caBundle}
    rules:
      - operations: [CREATE, UPDATE]
        apiGroups: [example.com]
        apiVersions: [v1]
        resources: [widgets]
    sideEffects: None
    admissionReviewVersions: [v1]
`;
  const apply = await kapi.kubectl(['apply', '-f', '-'], { stdin: config });
  t.is(apply.code, 0, describe(apply));
  t.is(apply.stdout, 'validatingwebhookconfiguration.admissionregistration.k8s.io/no-red created\n');

  const list = await kapi.kubectl(['get', 'validatingwebhookconfigurations']);
  t.is(list.code, 0, describe(list));
  const rows = table(list.stdout);
  t.deepEqual(rows[0], ['NAME', 'WEBHOOKS', 'AGE']);
  t.deepEqual(row(rows, 'no-red')?.slice(0, 2), ['no-red', '1']);

  const denied = await eventually(
    () => kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: widgetYaml('crimson', 'red') }),
    (r) => r.code !== 0,
  );
  t.is(denied.code, 1, describe(denied));
  t.is(denied.stderr, 'Error from server: error when creating "STDIN": admission webhook "no-red.kapi.test" denied the request: red widgets are not allowed\n');
  const blue = await kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: widgetYaml('navy', 'blue') });
  t.is(blue.code, 0, describe(blue));
});

test.serial("a MutatingWebhookConfiguration's patch shows in kubectl get -o yaml", async (t) => {
  hooks.handle('/stamp', patch([{ op: 'add', path: '/metadata/annotations', value: { 'stamped-by': 'webhook' } }]));
  const config = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: stamp
webhooks:
  - name: stamp.kapi.test
    clientConfig:
      url: ${hooks.url('/stamp')}
      caBundle: ${hooks.caBundle}
    rules:
      - operations: [CREATE]
        apiGroups: [example.com]
        apiVersions: ['*']
        resources: [widgets]
    objectSelector:
      matchLabels: {stamp: "yes"}
    sideEffects: None
    admissionReviewVersions: [v1]
`;
  const apply = await kapi.kubectl(['apply', '-f', '-'], { stdin: config });
  t.is(apply.stdout, 'mutatingwebhookconfiguration.admissionregistration.k8s.io/stamp created\n', describe(apply));
  const created = await eventually(
    async () => {
      const name = `stamped-${Date.now()}`;
      const res = await kapi.kubectl(['-n', 'demo', 'apply', '-f', '-'], { stdin: widgetYaml(name, 'green', '    stamp: "yes"\n') });
      return { res, name };
    },
    ({ res }) => res.code === 0 && hooks.requestsTo('/stamp').length > 0,
  );
  t.is(created.res.code, 0, describe(created.res));
  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widget', created.name, '-o', 'yaml']);
  t.is(get.code, 0, describe(get));
  t.regex(get.stdout, /annotations:\n(?:\s+.*\n)*?\s+stamped-by: webhook\n/);
});

test.serial('kubectl --dry-run=server reaching a webhook with sideEffects Some prints kube\'s refusal', async (t) => {
  const dry = await kapi.kubectl(['-n', 'demo', 'create', '--dry-run=server', '-f', '-'], { stdin: widgetYaml('effects', 'blue', '    effects: some\n') });
  t.is(dry.code, 1, describe(dry));
  t.is(dry.stderr, 'Error from server (BadRequest): error when creating "STDIN": admission webhook "side-effects.kapi.test" does not support dry run\n');
  t.is(hooks.requestsTo('/side-effects').length, 0);
  const real = await kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: widgetYaml('effects', 'blue', '    effects: some\n') });
  t.is(real.code, 0, describe(real));
  t.is(hooks.requestsTo('/side-effects').length, 1);
});
