// The local APIServices of built-in group-versions across a restart, as kube's autoregister controller keeps its
// `onstart` ones: one a user deleted is back after the restart; one a user changed is left as the user left it.
import test from 'ava';
import { describe, removeDir, startKapi, tempDir, type KapiProcess } from '../helpers/kapi-process.js';

const dataDir = tempDir('kapi-e2e-apiservices-restart-');
let kapi: KapiProcess | undefined;

test.before(async () => {
  kapi = await startKapi({ dataDir });
});

test.after.always(async () => {
  await kapi?.stop();
  removeDir(dataDir);
});

const get = (name: string, jsonpath: string) => kapi!.kubectl(['get', 'apiservice', name, '-o', `jsonpath=${jsonpath}`]);

test.serial('a deleted built-in APIService is re-created at the next start; a changed one keeps its change', async (t) => {
  const uid = (await get('v1.coordination.k8s.io', '{.metadata.uid}')).stdout;
  t.truthy(uid);
  const deleted = await kapi!.kubectl(['delete', 'apiservice', 'v1.coordination.k8s.io']);
  t.is(deleted.code, 0, describe(deleted));
  const patched = await kapi!.kubectl(['patch', 'apiservice', 'v1.rbac.authorization.k8s.io', '--type=merge', '-p', '{"spec":{"versionPriority":16}}']);
  t.is(patched.code, 0, describe(patched));

  await kapi!.stop();
  kapi = await startKapi({ dataDir });

  const back = await get('v1.coordination.k8s.io', '{.metadata.uid} {.spec.groupPriorityMinimum}/{.spec.versionPriority} {.status.conditions[0].status}');
  t.is(back.code, 0, describe(back));
  const [newUid, priorities, available] = back.stdout.split(' ');
  t.not(newUid, uid);
  t.is(priorities, '16500/15');
  t.is(available, 'True');
  t.is((await get('v1.rbac.authorization.k8s.io', '{.spec.versionPriority}')).stdout, '16');
});
