// API Priority and Fairness with the real kubectl against `kapi serve`: kube's bootstrap FlowSchemas and priority
// levels in `kubectl get` with kube's columns, a deleted mandatory one back, and the classification headers on
// kubectl's own requests.
import test from 'ava';
import { describe, eventually, row, table, useKapi, type KubectlResult } from '../helpers/kapi-process.js';

const kapi = useKapi();

async function ok(args: string[]): Promise<KubectlResult> {
  const res = await kapi.kubectl(args);
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  return res;
}

test.serial('kubectl get flowschemas: NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL', async (t) => {
  // the Dangling conditions are set just after start: wait for the last column to say False everywhere
  const get = await eventually(
    () => ok(['get', 'flowschemas']),
    (res) => table(res.stdout).slice(1).every((r) => r[5] === 'False'),
  );
  const rows = table(get.stdout);
  t.deepEqual(rows[0], ['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL'], describe(get));
  const withoutAge = (r: string[] | undefined) => r && [...r.slice(0, 4), r[5]];
  t.deepEqual(withoutAge(row(rows, 'exempt')), ['exempt', 'exempt', '1', '<none>', 'False']);
  t.deepEqual(withoutAge(row(rows, 'probes')), ['probes', 'exempt', '2', '<none>', 'False']);
  t.deepEqual(withoutAge(row(rows, 'global-default')), ['global-default', 'global-default', '9900', 'ByUser', 'False']);
  t.deepEqual(withoutAge(row(rows, 'kube-system-service-accounts')), ['kube-system-service-accounts', 'workload-high', '900', 'ByNamespace', 'False']);
  t.deepEqual(withoutAge(row(rows, 'catch-all')), ['catch-all', 'catch-all', '10000', 'ByUser', 'False']);
  t.is(rows.length - 1, 13, 'the 2 mandatory and 11 suggested FlowSchemas');
});

test.serial('kubectl get prioritylevelconfigurations: NAME TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE', async (t) => {
  const get = await ok(['get', 'prioritylevelconfigurations']);
  const rows = table(get.stdout);
  t.deepEqual(rows[0], ['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE'], describe(get));
  const withoutAge = (r: string[] | undefined) => r?.slice(0, 6);
  t.deepEqual(withoutAge(row(rows, 'exempt')), ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>']);
  t.deepEqual(withoutAge(row(rows, 'catch-all')), ['catch-all', 'Limited', '5', '<none>', '<none>', '<none>']);
  t.deepEqual(withoutAge(row(rows, 'workload-low')), ['workload-low', 'Limited', '100', '128', '6', '50']);
  t.deepEqual(withoutAge(row(rows, 'leader-election')), ['leader-election', 'Limited', '10', '16', '4', '50']);
  t.is(rows.length - 1, 8);
});

test.serial('kubectl delete of a mandatory FlowSchema: it is back at once, under a new uid', async (t) => {
  const uid = (await ok(['get', 'flowschema', 'catch-all', '-o', 'jsonpath={.metadata.uid}'])).stdout;
  await ok(['delete', 'flowschema', 'catch-all']);
  const back = await eventually(
    () => kapi.kubectl(['get', 'flowschema', 'catch-all', '-o', 'jsonpath={.metadata.uid}']),
    (res) => res.code === 0 && res.stdout !== '' && res.stdout !== uid,
  );
  t.not(back.stdout, uid);
});

test.serial("kubectl's requests name their FlowSchema and priority level (the admin is system:masters: exempt)", async (t) => {
  const exempt = (await ok(['get', 'flowschema', 'exempt', '-o', 'jsonpath={.metadata.uid}'])).stdout;
  const res = await ok(['get', '--raw', '/version', '-v=8']);
  const header = /X-Kubernetes-Pf-Flowschema-Uid: (\S+)/i.exec(res.stderr);
  t.is(header?.[1], exempt, describe(res));
  t.regex(res.stderr, /X-Kubernetes-Pf-Prioritylevel-Uid: \S+/i);
});
