// apiregistration.k8s.io/v1 APIService through Kubernetes protobuf: round trips, Go's JSON for a local APIService
// (`service: null`, zero priorities kept), and kube's field numbers (k8s.io/kube-aggregator generated.proto).
import test from 'ava';
import { KubeProtobufCodec, unwrapKubeProtobuf } from '../../../../../plugins/codecs/protobuf/index.js';

const codec = new KubeProtobufCodec();
type Obj = Record<string, unknown>;
const roundTrip = (o: Obj) => codec.decode(codec.encode(o), { apiVersion: o.apiVersion as string, kind: o.kind as string }) as Obj;
const meta = (name: string) => ({ name, uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: '2026-01-02T03:04:05Z' });

const remote: Obj = {
  kind: 'APIService',
  apiVersion: 'apiregistration.k8s.io/v1',
  metadata: meta('v1beta1.metrics.k8s.io'),
  spec: {
    service: { namespace: 'kube-system', name: 'metrics-server', port: 8443 },
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    caBundle: Buffer.from('PEM').toString('base64'),
    groupPriorityMinimum: 100,
    versionPriority: 100,
  },
  status: { conditions: [{ type: 'Available', status: 'False', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'ServiceNotFound', message: 'service/metrics-server in "kube-system" is not present' }] },
};

test('an APIService and its list survive a protobuf round trip', (t) => {
  t.deepEqual(roundTrip(remote), remote);
  const { apiVersion: _a, kind: _k, ...item } = remote;
  const list = { kind: 'APIServiceList', apiVersion: 'apiregistration.k8s.io/v1', metadata: { resourceVersion: '9' }, items: [item] };
  t.deepEqual(roundTrip(list), list);
});

test('a local APIService reads back as Go writes it: service null, zero priorities and empty status kept', (t) => {
  const local = { kind: 'APIService', apiVersion: 'apiregistration.k8s.io/v1', metadata: meta('v1.'), spec: { version: 'v1' }, status: {} };
  t.deepEqual(roundTrip(local), { ...local, spec: { service: null, version: 'v1', groupPriorityMinimum: 0, versionPriority: 0 } });
});

/** The bytes of a varint field (wire type 0) with a value under 128. */
const varintField = (number: number, value: number) => Buffer.from([number << 3, value]);

test("field numbers are kube's: groupPriorityMinimum 7, versionPriority 8, ServiceReference.port 3", (t) => {
  const small = { ...remote, spec: { ...(remote.spec as Obj), groupPriorityMinimum: 5, versionPriority: 6, service: { namespace: 'n', name: 's', port: 9 } } };
  const bytes = Buffer.from(unwrapKubeProtobuf(codec.encode(small)).raw);
  t.true(bytes.includes(varintField(7, 5)), 'groupPriorityMinimum = 7');
  t.true(bytes.includes(varintField(8, 6)), 'versionPriority = 8');
  t.true(bytes.includes(varintField(3, 9)), 'port = 3');
});
