// kubectl --dry-run=server: create, apply and delete answer as if done, change nothing; admission plugins run
// (kapi serve --admission-plugins enables the built-in CreatedBy plugin here).
import test from 'ava';
import { describe, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true, args: ['--admission-plugins', 'NamespaceLifecycle,CreatedBy'] });

const widget = (color: string) => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: dry
spec:
  color: ${color}
  replicas: 1
`;

test.serial('create and apply with --dry-run=server store nothing; the answer shows admission ran', async (t) => {
  const create = await kapi.kubectl(['-n', 'demo', 'create', '--dry-run=server', '-o', 'jsonpath={.metadata.annotations}', '-f', '-'], { stdin: widget('red') });
  t.is(create.code, 0, describe(create));
  t.is(create.stdout, '{"kapi.dev/created-by":"kapi-admin"}', describe(create));
  const apply = await kapi.kubectl(['-n', 'demo', 'apply', '--dry-run=server', '-f', '-'], { stdin: widget('red') });
  t.is(apply.code, 0, describe(apply));
  t.is(apply.stdout, 'widget.example.com/dry created (server dry run)\n', describe(apply));
  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'dry']);
  t.is(get.code, 1);
  t.regex(get.stderr, /widgets.example.com "dry" not found/);
});

test.serial('apply and delete of a stored widget with --dry-run=server leave it as it was', async (t) => {
  const real = await kapi.kubectl(['-n', 'demo', 'apply', '-f', '-'], { stdin: widget('red') });
  t.is(real.code, 0, describe(real));
  const apply = await kapi.kubectl(['-n', 'demo', 'apply', '--dry-run=server', '-f', '-'], { stdin: widget('green') });
  t.is(apply.stdout, 'widget.example.com/dry configured (server dry run)\n', describe(apply));
  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'dry', '--dry-run=server']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, 'widget.example.com "dry" deleted (server dry run)\n', describe(del));
  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'dry', '-o', 'jsonpath={.spec.color} {.metadata.annotations.kapi\\.dev/created-by}']);
  t.is(get.stdout, 'red kapi-admin', describe(get));
});
