// User story 7: deleting custom resources, with and without a finalizer.
import test from 'ava';
import { describe, example, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

const w2 = `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w2
  finalizers: [example.com/hold]
spec:
  color: red
  replicas: 1
`;

test.serial('a widget with a finalizer is only marked for deletion until the finalizer is removed', async (t) => {
  const create = await kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: w2 });
  t.is(create.code, 0, describe(create));
  t.is(create.stdout, 'widget.example.com/w2 created\n', describe(create));

  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'w2', '--wait=false']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, 'widget.example.com "w2" deleted\n', describe(del));

  const ts = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w2', '-o', 'jsonpath={.metadata.deletionTimestamp}']);
  t.is(ts.code, 0, describe(ts));
  t.regex(ts.stdout, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, describe(ts));
  const grace = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w2', '-o', 'jsonpath={.metadata.deletionGracePeriodSeconds}']);
  t.is(grace.stdout, '0', describe(grace));

  // Still listed while terminating.
  const list = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-o', 'name']);
  t.is(list.stdout, 'widget.example.com/w2\n', describe(list));

  // A second delete is accepted and changes nothing.
  const again = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'w2', '--wait=false']);
  t.is(again.code, 0, describe(again));
  t.is(again.stdout, 'widget.example.com "w2" deleted\n', describe(again));
  const ts2 = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w2', '-o', 'jsonpath={.metadata.deletionTimestamp}']);
  t.is(ts2.stdout, ts.stdout, 'deletionTimestamp is not moved by a second delete');

  const patch = await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'w2', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  t.is(patch.code, 0, describe(patch));
  t.is(patch.stdout, 'widget.example.com/w2 patched\n', describe(patch));

  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w2']);
  t.is(get.code, 1, describe(get));
  t.is(get.stdout, '', describe(get));
  t.is(get.stderr, 'Error from server (NotFound): widgets.example.com "w2" not found\n', describe(get));
});

test.serial('a terminating widget refuses new finalizers but accepts other updates', async (t) => {
  const create = await kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: w2.replaceAll('w2', 'w4') });
  t.is(create.code, 0, describe(create));
  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'w4', '--wait=false']);
  t.is(del.code, 0, describe(del));
  const add = await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'w4', '--type=json', '-p', '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/other"}]']);
  t.is(add.code, 1, describe(add));
  t.regex(add.stderr, /^The Widget "w4" is invalid: metadata\.finalizers: Forbidden: no new finalizers can be added if the object is being deleted/, describe(add));
  const label = await kapi.kubectl(['-n', 'demo', 'label', 'widget', 'w4', 'x=y']);
  t.is(label.code, 0, describe(label));
  t.is(label.stdout, 'widget.example.com/w4 labeled\n', describe(label));
  const patch = await kapi.kubectl(['-n', 'demo', 'patch', 'widget', 'w4', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
  t.is(patch.code, 0, describe(patch));
  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w4']);
  t.is(get.stderr, 'Error from server (NotFound): widgets.example.com "w4" not found\n', describe(get));
});

test.serial('delete with the default --wait removes w1 and returns promptly', async (t) => {
  const apply = await kapi.kubectl(['-n', 'demo', 'apply', '-f', example('widget.yaml')]);
  t.is(apply.code, 0, describe(apply));

  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'w1', '--timeout=30s']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, 'widget.example.com "w1" deleted\n', describe(del));
  t.is(del.stderr, '', describe(del));
  t.true(del.ms < 10_000, `kubectl delete took ${del.ms}ms`);

  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w1']);
  t.is(get.code, 1, describe(get));
  t.is(get.stderr, 'Error from server (NotFound): widgets.example.com "w1" not found\n', describe(get));
});

test.serial('delete of a missing widget is NotFound; --ignore-not-found is silent', async (t) => {
  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'nope']);
  t.is(del.code, 1, describe(del));
  t.is(del.stderr, 'Error from server (NotFound): widgets.example.com "nope" not found\n', describe(del));
  const ignored = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'nope', '--ignore-not-found']);
  t.is(ignored.code, 0, describe(ignored));
  t.is(ignored.stdout + ignored.stderr, '', describe(ignored));
});

test.serial('delete -l deletes the selected widgets; delete --all the rest', async (t) => {
  const apply = await kapi.kubectl(['-n', 'demo', 'apply', '-f', example('widgets.yaml'), '-f', example('widget.yaml')]);
  t.is(apply.code, 0, describe(apply));
  const gold = await kapi.kubectl(['-n', 'demo', 'delete', 'widgets', '-l', 'tier=gold']);
  t.is(gold.code, 0, describe(gold));
  t.deepEqual(gold.stdout.trim().split('\n').sort(), ['widget.example.com "w1" deleted', 'widget.example.com "w3" deleted'], describe(gold));
  const left = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-o', 'name']);
  t.is(left.stdout, 'widget.example.com/w2\n', describe(left));
  const all = await kapi.kubectl(['-n', 'demo', 'delete', 'widgets', '--all']);
  t.is(all.code, 0, describe(all));
  t.is(all.stdout, 'widget.example.com "w2" deleted\n', describe(all));
  const none = await kapi.kubectl(['-n', 'demo', 'get', 'widgets']);
  t.is(none.stderr, 'No resources found in demo namespace.\n', describe(none));
});
