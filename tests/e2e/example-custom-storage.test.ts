// The custom-storage example serves a computed Clock and SQLite-backed Notes through RestStorage; kubectl uses them
// as any other resource: tables with the printer columns, watch, YAML, explain, selectors, writes and a subresource.
import test from 'ava';
import { describe, removeDir, runKubectl, table, tempDir, tempFile } from '../helpers/kapi-process.js';
import { startExampleProcess, type ExampleProcess } from '../helpers/example-process.js';
import { killAllKubectlStreams, spawnKubectl } from '../helpers/kubectl-stream.js';

let url = '';
let home = '';
let example: ExampleProcess | undefined;
const kubectl = (args: string[], stdin?: string) => runKubectl(['--server', url, ...args], { env: { HOME: home }, stdin });

test.before(async () => {
  home = tempDir('kapi-example-home-');
  example = await startExampleProcess('custom-storage');
  url = example.url;
});
test.after.always(async () => {
  await killAllKubectlStreams();
  await example?.stop();
  removeDir(home);
});

const note = (name: string, extra = '') => `apiVersion: example.com/v1
kind: Note
metadata:
  name: ${name}
  labels: {list: home}
spec:
  title: Groceries
  text: milk eggs bread${extra}
`;

test('kubectl get prints the computed Clock with its printer columns, and -o yaml the object', async (t) => {
  const get = await kubectl(['get', 'clocks']);
  t.is(get.code, 0, describe(get));
  const rows = table(get.stdout);
  t.deepEqual(rows[0], ['NAME', 'TIME', 'UPTIME']);
  t.is(rows[1]![0], 'now');
  t.regex(rows[1]![1]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.regex(rows[1]![2]!, /^\d+$/);

  const yaml = await kubectl(['get', 'clock', 'now', '-o', 'yaml']);
  t.is(yaml.code, 0, describe(yaml));
  t.regex(yaml.stdout, /^apiVersion: example\.com\/v1\nkind: Clock\n/);
  t.regex(yaml.stdout, /\n  uptimeSeconds: \d+\n/);

  const missing = await kubectl(['get', 'clock', 'later']);
  t.is(missing.code, 1);
  t.is(missing.stderr, 'Error from server (NotFound): clocks.example.com "later" not found\n');
});

test('kubectl get -w receives the Clock changing every second', async (t) => {
  const kubeconfig = tempFile('kubeconfig', `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${url}"}}]\ncontexts: [{name: c, context: {cluster: c}}]\ncurrent-context: c\n`);
  const watch = spawnKubectl({ kubeconfig, home }, ['get', 'clocks', '-w']);
  // The header, the listed row, then one row per MODIFIED event.
  await t.notThrowsAsync(watch.waitForLine(/^now\s/, { from: 3, timeoutMs: 10_000 }), watch.describe());
  const uptimes = watch.lines.slice(1).map((line) => Number(line.trim().split(/\s+/)[2]));
  t.true(uptimes.length >= 3, watch.describe());
  t.true(uptimes[uptimes.length - 1]! > uptimes[0]!, watch.describe());
  await watch.kill();
});

test('kubectl explain reads the schema the resource was registered with', async (t) => {
  const explain = await kubectl(['explain', 'clocks.status']);
  t.is(explain.code, 0, describe(explain));
  t.regex(explain.stdout, /uptimeSeconds\t<integer>\n\s+Seconds since the server started\./);
});

test('a label selector is applied by kapi when the storage does not apply it', async (t) => {
  const selected = await kubectl(['get', 'clocks', '-l', 'example.com/source=computed', '-o', 'name']);
  t.is(selected.code, 0, describe(selected));
  t.is(selected.stdout, 'clock.example.com/now\n');
  const none = await kubectl(['get', 'clocks', '-l', 'example.com/source=elsewhere', '-o', 'name']);
  t.is(none.code, 0, describe(none));
  t.is(none.stdout, '');
});

test('notes kept in SQLite: create, get with printer columns, a label selector, 409 on a stale replace, delete', async (t) => {
  const create = await kubectl(['create', '-n', 'default', '-f', '-'], note('groceries'));
  t.is(create.code, 0, describe(create));
  t.is(create.stdout, 'note.example.com/groceries created\n');

  const get = await kubectl(['get', 'notes', '-n', 'default', '-l', 'list=home']);
  t.is(get.code, 0, describe(get));
  t.deepEqual(table(get.stdout), [
    ['NAME', 'TITLE', 'PRIORITY'],
    ['groceries', 'Groceries', '0'], // priority defaulted by the schema
  ]);

  const read = await kubectl(['get', 'note', 'groceries', '-n', 'default', '-o', 'yaml']);
  t.is(read.code, 0, describe(read));
  const label = await kubectl(['label', 'note', 'groceries', '-n', 'default', 'urgent=yes']);
  t.is(label.code, 0, describe(label));
  const stale = await kubectl(['replace', '-n', 'default', '-f', '-'], read.stdout);
  t.is(stale.code, 1, describe(stale));
  t.is(
    stale.stderr,
    'Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on notes.example.com "groceries": the object has been modified; please apply your changes to the latest version and try again\n',
  );

  const summary = await kubectl(['get', '--raw', '/apis/example.com/v1/namespaces/default/notes/groceries/summary']);
  t.is(summary.code, 0, describe(summary));
  t.deepEqual(JSON.parse(summary.stdout), {
    apiVersion: 'example.com/v1',
    kind: 'NoteSummary',
    metadata: { name: 'groceries', namespace: 'default' },
    words: 3,
    characters: 15,
  });

  const del = await kubectl(['delete', 'note', 'groceries', '-n', 'default']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, 'note.example.com "groceries" deleted\n');
  const after = await kubectl(['get', 'notes', '-n', 'default', '-o', 'name']);
  t.is(after.stdout, '', describe(after));
});

test('the Clock summary subresource answers with its own kind (kubectl get --raw)', async (t) => {
  const raw = await kubectl(['get', '--raw', '/apis/example.com/v1/clocks/now/summary']);
  t.is(raw.code, 0, describe(raw));
  const summary = JSON.parse(raw.stdout);
  t.is(summary.kind, 'ClockSummary');
  t.is(summary.apiVersion, 'example.com/v1');
  t.regex(summary.summary, /^up \d+h\d+m\d+s since \d{4}-/);
  const unknown = await kubectl(['get', '--raw', '/apis/example.com/v1/clocks/now/tick']);
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /NotFound/);
});

test('OpenAPI v3 publishes the Clock summary subresource with its ClockSummary schema', async (t) => {
  const raw = await kubectl(['get', '--raw', '/openapi/v3/apis/example.com/v1']);
  t.is(raw.code, 0, describe(raw));
  const doc = JSON.parse(raw.stdout);
  const get = doc.paths['/apis/example.com/v1/clocks/{name}/summary']?.get;
  t.is(get?.operationId, 'readExampleComV1ClockSummary');
  t.deepEqual(get?.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/com.example.v1.ClockSummary' });
  const summary = doc.components.schemas['com.example.v1.ClockSummary'];
  t.deepEqual(summary?.['x-kubernetes-group-version-kind'], [{ group: 'example.com', kind: 'ClockSummary', version: 'v1' }]);
  t.is(summary?.properties.summary.type, 'string');
});
