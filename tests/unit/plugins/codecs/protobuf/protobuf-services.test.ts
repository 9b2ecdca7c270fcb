// core/v1 Service and Endpoints through Kubernetes protobuf: round trips, and field numbers checked against the bytes
// Go writes for them (k8s.io/api core/v1 generated.proto).
import test from 'ava';
import { KubeProtobufCodec, unwrapKubeProtobuf } from '../../../../../plugins/codecs/protobuf/index.js';

const codec = new KubeProtobufCodec();
type Obj = Record<string, unknown>;
const roundTrip = (o: Obj) => codec.decode(codec.encode(o), { apiVersion: o.apiVersion as string, kind: o.kind as string }) as Obj;
const meta = (name: string) => ({ name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: '2026-01-02T03:04:05Z' });

const service: Obj = {
  kind: 'Service',
  apiVersion: 'v1',
  metadata: meta('web'),
  spec: {
    ports: [
      { name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: 30080 },
      { name: 'named', protocol: 'UDP', appProtocol: 'dns', port: 53, targetPort: 'dns' },
    ],
    selector: { app: 'web' },
    clusterIP: '10.0.0.10',
    clusterIPs: ['10.0.0.10'],
    type: 'LoadBalancer',
    sessionAffinity: 'ClientIP',
    sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
    externalTrafficPolicy: 'Local',
    healthCheckNodePort: 30999,
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    allocateLoadBalancerNodePorts: false,
    internalTrafficPolicy: 'Cluster',
    trafficDistribution: 'PreferClose',
  },
  status: { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP', ports: [{ port: 80, protocol: 'TCP', error: 'x' }] }] } },
};

const endpoints: Obj = {
  kind: 'Endpoints',
  apiVersion: 'v1',
  metadata: meta('web'),
  subsets: [
    {
      addresses: [{ ip: '10.1.0.1', hostname: 'a', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'default', name: 'p', uid: 'u' } }],
      notReadyAddresses: [{ ip: '10.1.0.2' }],
      ports: [{ name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' }],
    },
  ],
};

/** A list's items carry no apiVersion and kind in protobuf (as in kube). */
const item = ({ apiVersion: _a, kind: _k, ...rest }: Obj) => rest;

test('Service, Endpoints and their lists survive a protobuf round trip', (t) => {
  t.deepEqual(roundTrip(service), service);
  t.deepEqual(roundTrip(endpoints), endpoints);
  const list = { kind: 'ServiceList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [item(service)] };
  t.deepEqual(roundTrip(list), list);
  const epList = { kind: 'EndpointsList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [item(endpoints)] };
  t.deepEqual(roundTrip(epList), epList);
});

test('a Service with an empty load balancer status round-trips', (t) => {
  const bare = { kind: 'Service', apiVersion: 'v1', metadata: meta('bare'), spec: { ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], type: 'ClusterIP' }, status: { loadBalancer: {} } };
  t.deepEqual(roundTrip(bare), bare);
});

/** The bytes of a length-delimited field: its tag (field number, wire type 2) as a varint, the length, the value. */
function field(number: number, value: string): Buffer {
  const tag = (number << 3) | 2;
  const varint = tag < 128 ? [tag] : [(tag & 0x7f) | 0x80, tag >> 7];
  return Buffer.from([...varint, value.length, ...Buffer.from(value)]);
}

test('field numbers are kube\'s: clusterIPs 18, ipFamilyPolicy 17, trafficDistribution 23, EndpointAddress.nodeName 4', (t) => {
  const svcBytes = Buffer.from(unwrapKubeProtobuf(codec.encode(service)).raw);
  for (const [number, value] of [[18, '10.0.0.10'], [17, 'SingleStack'], [19, 'IPv4'], [22, 'Cluster'], [23, 'PreferClose']] as const) {
    t.true(svcBytes.includes(field(number, value)), `field ${number}`);
  }
  const epBytes = Buffer.from(unwrapKubeProtobuf(codec.encode(endpoints)).raw);
  t.true(epBytes.includes(field(4, 'n1')), 'nodeName = 4');
  t.true(epBytes.includes(field(3, 'a')), 'hostname = 3');
});
