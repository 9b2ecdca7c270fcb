// The crd-only example is a runnable server built with createApiServer in a few lines; kubectl can use it.
import test from 'ava';
import { describe, removeDir, repoPath, runKubectl, table, tempDir } from '../helpers/kapi-process.js';
import { startExample } from '../helpers/example-process.js';

test('examples/crd-only serves the widgets CRD to kubectl without a restart or setup', async (t) => {
  const home = tempDir('kapi-example-home-');
  t.teardown(() => removeDir(home));
  const url = await startExample(t, 'crd-only');
  const kubectl = (args: string[]) => runKubectl(['--server', url, ...args], { env: { HOME: home } });

  const apply = await kubectl(['apply', '-n', 'default', '-f', repoPath('examples/crd-only/widget.yaml')]);
  t.is(apply.code, 0, describe(apply));
  t.is(apply.stdout, 'widget.example.com/w1 created\n');
  const get = await kubectl(['get', 'widgets', '-n', 'default']);
  t.is(get.code, 0, describe(get));
  const rows = table(get.stdout);
  t.deepEqual(rows[0], ['NAME', 'COLOR', 'REPLICAS', 'AGE']);
  t.deepEqual(rows[1].slice(0, 3), ['w1', 'blue', '3']);
});
