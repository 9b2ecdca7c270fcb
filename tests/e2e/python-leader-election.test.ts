// Leader election with the official Python client (Debian's python3-kubernetes): two candidate processes running
// kubernetes.leaderelection with its ConfigMapLock (tests/e2e/python/leader_candidate.py) against one `kapi serve`.
// The lock is the `control-plane.alpha.kubernetes.io/leader` annotation of a ConfigMap, renewed by GET then PUT with
// the resourceVersion read. Exactly one leads; after it is killed (-9) the other takes over once the lease expired.
import test from 'ava';
import { describe, eventually, removeDir, startKapi, tempDir, type KapiProcess } from '../helpers/kapi-process.js';
import { pythonClientTests, spawnPython, type PythonProcess } from '../helpers/python-client.js';

// As in leader_candidate.py.
const leaseDurationSeconds = 3;
const retryPeriodSeconds = 1;
const annotation = 'control-plane.alpha.kubernetes.io/leader';

interface LockRecord {
  holderIdentity: string;
  leaseDurationSeconds: string;
  acquireTime: string;
  renewTime: string;
}

pythonClientTests(() => {
  const dataDir = tempDir('kapi-e2e-python-leader-');
  let kapi: KapiProcess | undefined;
  const candidates: PythonProcess[] = [];

  test.serial.before(async () => {
    kapi = await startKapi({ dataDir });
    const res = await kapi.kubectl(['create', 'namespace', 'py-election']);
    if (res.code !== 0) throw new Error(describe(res));
  });

  test.after.always(async () => {
    await Promise.all(candidates.map((c) => c.kill()));
    await kapi?.stop();
    removeDir(dataDir);
  });

  /** The lock record the ConfigMap's annotation holds ('' while there is no ConfigMap). */
  async function lockRecord(): Promise<LockRecord | undefined> {
    const res = await kapi!.kubectl(['-n', 'py-election', 'get', 'configmap', 'my-operator', '-o', 'json', '--ignore-not-found']);
    if (res.code !== 0) throw new Error(describe(res));
    if (res.stdout === '') return undefined;
    return JSON.parse(JSON.parse(res.stdout).metadata.annotations[annotation]) as LockRecord;
  }

  /** Python's str(datetime) of the record (local time, no zone) in milliseconds. */
  const millis = (time: string) => Date.parse(time.replace(' ', 'T'));

  test.serial('two ConfigMapLock candidates: exactly one leads; killed, the other takes over after the lease duration', async (t) => {
    const start = (identity: string) => spawnPython('leader_candidate.py', [kapi!.kubeconfig, 'py-election', 'my-operator', identity]);
    const a = start('candidate-a');
    const b = start('candidate-b');
    candidates.push(a, b);
    const outputs = () => `${a.describe()}\n${b.describe()}`;

    const leading = (c: PythonProcess) => c.stdout().includes('leading ');
    await eventually(async () => leading(a) || leading(b), Boolean, 30_000);
    t.true(leading(a) || leading(b), outputs());
    const [leader, follower, leaderId, followerId] = leading(a) ? [a, b, 'candidate-a', 'candidate-b'] : [b, a, 'candidate-b', 'candidate-a'];

    // Two renewals later (each a PUT with the resourceVersion read), the leader still leads alone.
    const first = await lockRecord();
    t.is(first?.holderIdentity, leaderId, outputs());
    const renewed = (r: LockRecord | undefined) => r !== undefined && millis(r.renewTime) >= millis(first!.renewTime) + 2 * retryPeriodSeconds * 1000;
    const held = await eventually(lockRecord, renewed, 15_000);
    t.true(renewed(held), `not renewed: ${JSON.stringify(held)}\n${outputs()}`);
    t.like(held, { holderIdentity: leaderId, leaseDurationSeconds: String(leaseDurationSeconds), acquireTime: first!.acquireTime });
    t.is(leader.stdout(), `leading ${leaderId}\n`, outputs());
    t.is(follower.stdout(), '', outputs());

    await leader.kill('SIGKILL');
    const killedAt = Date.now();
    const lastRenewal = (await lockRecord())!.renewTime;
    await eventually(async () => leading(follower), Boolean, 15_000);
    const tookMs = Date.now() - killedAt;
    t.is(follower.stdout(), `leading ${followerId}\n`, outputs());
    // The follower waits a lease duration from the last renewal it saw, polling every retry period.
    t.true(tookMs <= (leaseDurationSeconds + 2 * retryPeriodSeconds) * 1000 + 1000, `took over after ${tookMs} ms`);

    const taken = (await lockRecord())!;
    t.is(taken.holderIdentity, followerId);
    t.true(millis(taken.acquireTime) - millis(lastRenewal) >= leaseDurationSeconds * 1000, `${lastRenewal} → ${JSON.stringify(taken)}`);
  });
});
