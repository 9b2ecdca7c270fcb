// `kubectl get --raw` of /metrics, /statusz and /flagz on `kapi serve`, as an operator reads them.
import test from 'ava';
import { describe, startKapi, type KapiProcess } from '../helpers/kapi-process.js';
import { parsePrometheusText } from '../helpers/prometheus-text.js';

let kapi: KapiProcess | undefined;

test.before(async () => {
  kapi = await startKapi({ args: ['--storage', 'memory', '--event-ttl', '30m'] });
});

test.after.always(async () => {
  await kapi?.stop();
});

test('/metrics: kubectl get --raw scrapes kube\'s request metrics, counting kubectl\'s own requests', async (t) => {
  t.is((await kapi!.kubectl(['get', 'namespaces'])).code, 0);
  const res = await kapi!.kubectl(['get', '--raw', '/metrics']);
  t.is(res.code, 0, describe(res));
  const lists = parsePrometheusText(res.stdout).samples.filter((s) => s.name === 'apiserver_request_total' && s.labels['resource'] === 'namespaces' && s.labels['verb'] === 'LIST');
  t.is(lists.length, 1);
  t.like(lists[0]!.labels, { group: '', version: 'v1', scope: 'cluster', component: 'apiserver', code: '200', dry_run: '' });
});

test('/flagz lists the flags kapi serve was started with; /statusz its versions', async (t) => {
  const flagz = await kapi!.kubectl(['get', '--raw', '/flagz']);
  t.is(flagz.code, 0, describe(flagz));
  t.true(flagz.stdout.startsWith('\nkapi flags\nWarning: '));
  t.regex(flagz.stdout, /\nevent-ttl(:|: |=| )30m\n/);
  t.regex(flagz.stdout, /\nstorage(:|: |=| )memory\n/);
  t.regex(flagz.stdout, /\nport(:|: |=| )0\n/);
  const statusz = await kapi!.kubectl(['get', '--raw', '/statusz']);
  t.is(statusz.code, 0, describe(statusz));
  t.regex(statusz.stdout, /\nBinary version(:|: |=| ) 1\.32\.0-kapi\.0\.1\.0\n/);
});
