// Leader election with a real client: two candidates running client-go's LeaderElector algorithm (tryAcquireOrRenew)
// over @kubernetes/client-node's CoordinationV1Api against kapi. Exactly one leads; when it stops renewing (killed), the
// other takes the Lease over once it has not seen it renewed for the lease duration.
import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { createNamespace, useTestServer } from '../helpers/test-server.js';

const server = useTestServer();

const leaseDurationSeconds = 2;
const retryPeriodMs = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function coordinationApi(): k8s.CoordinationV1Api {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'kapi', server: server.url, caData: Buffer.from(server.ca).toString('base64'), skipTLSVerify: false }],
    users: [{ name: 'admin', token: server.token }],
    contexts: [{ name: 'kapi', cluster: 'kapi', user: 'admin' }],
    currentContext: 'kapi',
  });
  return kc.makeApiClient(k8s.CoordinationV1Api);
}

const code = (err: unknown) => (err instanceof k8s.ApiException ? err.code : undefined);

/** One candidate: client-go's tryAcquireOrRenew every retry period, leading while its last attempt succeeded. */
class Candidate {
  leader = false;
  readonly errors: unknown[] = [];
  private running = true;
  private readonly loop: Promise<void>;
  /** The lease record as last observed, and when (client-go times expiry by its own clock, not the record's). */
  private observed?: { holder: string; renewTime: string; at: number };

  constructor(
    readonly identity: string,
    private readonly api: k8s.CoordinationV1Api,
    private readonly namespace: string,
    private readonly name: string,
  ) {
    this.loop = this.run();
  }

  /** Stops renewing without releasing the Lease, as a killed process does. */
  async kill(): Promise<void> {
    this.running = false;
    await this.loop;
    this.leader = false;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        this.leader = await this.tryAcquireOrRenew();
      } catch (err) {
        this.leader = false;
        this.errors.push(err);
      }
      await sleep(retryPeriodMs);
    }
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = new k8s.V1MicroTime();
    let lease: k8s.V1Lease;
    try {
      lease = await this.api.readNamespacedLease({ name: this.name, namespace: this.namespace });
    } catch (err) {
      if (code(err) !== 404) throw err;
      const body: k8s.V1Lease = {
        metadata: { name: this.name, namespace: this.namespace },
        spec: { holderIdentity: this.identity, leaseDurationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 },
      };
      return this.attempt(() => this.api.createNamespacedLease({ namespace: this.namespace, body }));
    }
    const spec = lease.spec ?? {};
    const record = { holder: spec.holderIdentity ?? '', renewTime: String(spec.renewTime ?? '') }; // client-node leaves MicroTimes it reads as strings
    if (!this.observed || this.observed.holder !== record.holder || this.observed.renewTime !== record.renewTime) {
      this.observed = { ...record, at: Date.now() };
    }
    const held = record.holder !== '' && record.holder !== this.identity;
    if (held && this.observed.at + (spec.leaseDurationSeconds ?? leaseDurationSeconds) * 1000 > Date.now()) return false;
    const takingOver = record.holder !== this.identity;
    lease.spec = {
      ...spec,
      holderIdentity: this.identity,
      leaseDurationSeconds,
      renewTime: now,
      ...(takingOver ? { acquireTime: now, leaseTransitions: (spec.leaseTransitions ?? 0) + 1 } : {}),
    };
    // The resourceVersion read: a candidate that lost the race gets kube's 409.
    return this.attempt(() => this.api.replaceNamespacedLease({ name: this.name, namespace: this.namespace, body: lease }));
  }

  private async attempt(write: () => Promise<k8s.V1Lease>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (err) {
      if (code(err) === 409) return false;
      throw err;
    }
  }
}

test('two candidates: exactly one leads; after it is killed the other takes over within the lease duration', async (t) => {
  const ns = await createNamespace(server, 'election');
  const api = coordinationApi();
  const a = new Candidate('candidate-a', api, ns, 'my-operator');
  const b = new Candidate('candidate-b', api, ns, 'my-operator');
  try {
    await server.waitFor(() => a.leader || b.leader, 5_000, 'a leader');
    // For a while (several renewals), never both and never none.
    for (let i = 0; i < 10; i++) {
      await sleep(retryPeriodMs);
      t.true(a.leader !== b.leader, `round ${i}: a=${a.leader} b=${b.leader} ${String([...a.errors, ...b.errors].map((e) => (e as Error).message))}`);
    }
    const [leader, follower] = a.leader ? [a, b] : [b, a];
    const held = await api.readNamespacedLease({ name: 'my-operator', namespace: ns });
    t.is(held.spec?.holderIdentity, leader.identity);
    t.is(held.spec?.leaseTransitions, 0);

    await leader.kill();
    const killedAt = Date.now();
    await server.waitFor(() => follower.leader, 10_000, `${follower.identity} to take over`);
    const tookMs = Date.now() - killedAt;
    t.true(tookMs <= leaseDurationSeconds * 1000 + 3 * retryPeriodMs + 1000, `took over after ${tookMs} ms`);

    const taken = await server.request('GET', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/my-operator`);
    t.is(taken.body.spec.holderIdentity, follower.identity);
    t.is(taken.body.spec.leaseTransitions, 1);
    t.regex(taken.body.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    t.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    await Promise.all([a.kill(), b.kill()]);
  }
});
