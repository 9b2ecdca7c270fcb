// authentication.k8s.io/v1 TokenReview and SelfSubjectReview through Kubernetes protobuf (kubectl auth whoami sends
// and reads protobuf): round trips with Go's JSON rules, and kube's field numbers read back independently.
import test from 'ava';
import protobuf from 'protobufjs';
import { KubeProtobufCodec, unwrapKubeProtobuf } from '../../../../../plugins/codecs/protobuf/index.js';
import { authenticationV1Proto } from '../../../../../plugins/codecs/protobuf/protos/authentication-v1.js';
import { metaV1Proto } from '../../../../../plugins/codecs/protobuf/protos/meta-v1.js';
import { runtimeProto } from '../../../../../plugins/codecs/protobuf/protos/runtime.js';

const codec = new KubeProtobufCodec();
type Obj = Record<string, unknown>;
const roundTrip = (o: Obj) => codec.decode(codec.encode(o), { apiVersion: o.apiVersion as string, kind: o.kind as string }) as Obj;

const independent = new protobuf.Root();
for (const text of [runtimeProto, metaV1Proto, authenticationV1Proto]) protobuf.parse(text, independent, { keepCase: true });
independent.resolveAll();
const read = (name: string, o: Obj) => {
  const type = independent.lookupType(`k8s.io.api.authentication.v1.${name}`);
  return type.toObject(type.decode(unwrapKubeProtobuf(codec.encode(o) as Buffer).raw), { defaults: false });
};

const review = {
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'SelfSubjectReview',
  metadata: { creationTimestamp: '2026-11-27T08:00:00Z' },
  status: { userInfo: { username: 'alice', uid: '42', groups: ['devs', 'system:authenticated'], extra: { 'authentication.kubernetes.io/credential-id': ['JTI=x'], empty: [] } } },
};

test('a SelfSubjectReview round-trips, extra values included (a Go slice wrapped in ExtraValue)', (t) => {
  t.deepEqual(roundTrip(review), review);
  t.deepEqual(read('SelfSubjectReview', review).status, {
    userInfo: { username: 'alice', uid: '42', groups: ['devs', 'system:authenticated'], extra: { 'authentication.kubernetes.io/credential-id': { items: ['JTI=x'] }, empty: {} } },
  });
});

test('a TokenReview: spec and status at kube\'s field numbers; an unauthenticated one keeps its empty user', (t) => {
  const answered = {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenReview',
    metadata: { creationTimestamp: null },
    spec: { token: 'tok', audiences: ['api'] },
    status: { authenticated: true, user: { username: 'bob', groups: ['system:authenticated'] }, audiences: ['api'] },
  };
  t.deepEqual(roundTrip(answered), answered);
  // Go's marshaller writes every non-pointer field, empty strings too
  t.deepEqual(read('TokenReview', answered).status, { authenticated: true, user: { username: 'bob', uid: '', groups: ['system:authenticated'] }, audiences: ['api'], error: '' });
  const refused = { ...answered, status: { user: {}, error: 'invalid bearer token' } };
  t.deepEqual(roundTrip(refused), refused);
});
