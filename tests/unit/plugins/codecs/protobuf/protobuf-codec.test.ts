import 'reflect-metadata';
import test from 'ava';
import { container } from 'tsyringe';
import { ApiError } from '../../../../../core/contracts/api-error.js';
import { Tokens } from '../../../../../core/contracts/tokens.js';
import { ResourceTypeRegistry } from '../../../../../core/registry/resource-registry.js';
import {
  KubeProtobufCodec,
  decodeKubeProtobuf,
  encodeKubeProtobuf,
  kubeProtobufCodec,
  kubeProtobufMediaType,
  unwrapKubeProtobuf,
} from '../../../../../plugins/codecs/protobuf/index.js';

// ---- a tiny hand-rolled protobuf writer, independent of the codec's schema, using Kubernetes' field numbers --------

type Bytes = number[];
function varint(n: number | bigint): Bytes {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: Bytes = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const tag = (field: number, wireType: number): Bytes => varint(field * 8 + wireType);
const msg = (field: number, ...parts: Bytes[]): Bytes => {
  const body = parts.flat();
  return [...tag(field, 2), ...varint(body.length), ...body];
};
const bytesField = (field: number, data: Bytes): Bytes => [...tag(field, 2), ...varint(data.length), ...data];
const s = (field: number, text: string): Bytes => bytesField(field, [...Buffer.from(text, 'utf8')]);
const vi = (field: number, n: number | bigint): Bytes => [...tag(field, 0), ...varint(n)];
const entry = (field: number, key: string, value: string): Bytes => msg(field, s(1, key), s(2, value));
const magic = [0x6b, 0x38, 0x73, 0x00];
function envelope(apiVersion: string, kind: string, raw: Bytes, extra: Bytes = []): Buffer {
  return Buffer.from([...magic, ...msg(1, s(1, apiVersion), s(2, kind)), ...bytesField(2, raw), ...extra]);
}

const nsExpected = { apiVersion: 'v1', kind: 'Namespace' };
const t2026 = Date.UTC(2026, 0, 2, 3, 4, 5) / 1000; // 2026-01-02T03:04:05Z

function apiError(t: import('ava').ExecutionContext, fn: () => unknown, code: number): ApiError {
  const err = t.throws(fn, { instanceOf: ApiError });
  t.is(err!.code, code, err!.message);
  return err!;
}

// ---- decoding bytes built from Kubernetes' field numbers ----------------------------------------------------------

/** A Namespace touching every ObjectMeta field, with the field numbers of the Go generated.proto files. */
const fullNamespaceRaw: Bytes = [
  ...msg(
    1, // metadata
    s(1, 'web'),
    s(2, 'web-'),
    s(3, ''),
    s(4, '/api/v1/namespaces/web'),
    s(5, 'uid-1'),
    s(6, '42'),
    vi(7, 3),
    msg(8, vi(1, t2026), vi(2, 500)),
    msg(9, vi(1, t2026 + 3600)),
    vi(10, 0),
    entry(11, 'team', 'blue'),
    entry(11, 'app', 'web'),
    entry(12, 'note', 'hello'),
    msg(13, s(1, 'Thing'), s(3, 'owner'), s(4, 'uid-0'), s(5, 'example.com/v1'), vi(6, 1), vi(7, 0)),
    s(14, 'example.com/cleanup'),
    s(14, 'example.com/other'),
    msg(17, s(1, 'kubectl'), s(2, 'Update'), s(3, 'v1'), msg(4, vi(1, t2026)), s(6, 'FieldsV1'), msg(7, s(1, '{"f:metadata":{"f:labels":{".":{},"f:team":{}}}}')), s(8, '')),
  ),
  ...msg(2, s(1, 'kubernetes')), // spec.finalizers
  ...msg(3, s(1, 'Terminating'), msg(2, s(1, 'NamespaceDeletionContentFailure'), s(2, 'False'), msg(4, vi(1, t2026)), s(5, 'ContentDeleted'), s(6, 'All content successfully deleted'))),
];

const fullNamespaceJSON = {
  kind: 'Namespace',
  apiVersion: 'v1',
  metadata: {
    name: 'web',
    generateName: 'web-',
    selfLink: '/api/v1/namespaces/web',
    uid: 'uid-1',
    resourceVersion: '42',
    generation: 3,
    creationTimestamp: '2026-01-02T03:04:05Z',
    deletionTimestamp: '2026-01-02T04:04:05Z',
    deletionGracePeriodSeconds: 0,
    labels: { app: 'web', team: 'blue' },
    annotations: { note: 'hello' },
    ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Thing', name: 'owner', uid: 'uid-0', controller: true, blockOwnerDeletion: false }],
    finalizers: ['example.com/cleanup', 'example.com/other'],
    managedFields: [
      {
        manager: 'kubectl',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-02T03:04:05Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } } },
      },
    ],
  },
  spec: { finalizers: ['kubernetes'] },
  status: {
    phase: 'Terminating',
    conditions: [
      {
        type: 'NamespaceDeletionContentFailure',
        status: 'False',
        lastTransitionTime: '2026-01-02T03:04:05Z',
        reason: 'ContentDeleted',
        message: 'All content successfully deleted',
      },
    ],
  },
};

test('decodes every ObjectMeta/Namespace field from Kubernetes field numbers into kube JSON', (t) => {
  const obj = decodeKubeProtobuf(envelope('v1', 'Namespace', fullNamespaceRaw), nsExpected);
  t.deepEqual(obj, fullNamespaceJSON);
});

test('keys come out in the order Go encodes them', (t) => {
  const obj = decodeKubeProtobuf(envelope('v1', 'Namespace', fullNamespaceRaw), nsExpected) as typeof fullNamespaceJSON;
  t.deepEqual(Object.keys(obj), ['kind', 'apiVersion', 'metadata', 'spec', 'status']);
  t.deepEqual(Object.keys(obj.metadata), Object.keys(fullNamespaceJSON.metadata));
  t.deepEqual(Object.keys(obj.metadata.labels), ['app', 'team'], 'map keys sorted like Go');
  t.is(JSON.stringify(obj), JSON.stringify(fullNamespaceJSON));
});

test('exact JSON shape: labels, annotations, finalizers, timestamps; empty fields omitted as Go omitempty does', (t) => {
  const raw = [
    ...msg(1, s(1, 'demo'), s(2, ''), s(3, ''), s(4, ''), s(5, ''), s(6, ''), vi(7, 0), msg(8, vi(1, t2026), vi(2, 999_999_999)), entry(11, 'env', 'prod'), entry(12, 'a/b', 'c'), s(14, 'f1')),
    ...msg(2),
    ...msg(3, s(1, '')),
  ];
  const obj = decodeKubeProtobuf(envelope('v1', 'Namespace', raw), nsExpected);
  t.is(
    JSON.stringify(obj),
    '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"demo","creationTimestamp":"2026-01-02T03:04:05Z",' +
      '"labels":{"env":"prod"},"annotations":{"a/b":"c"},"finalizers":["f1"]},"spec":{},"status":{}}',
  );
});

test('an empty Namespace is what Go encodes for the zero value (creationTimestamp null, spec/status objects)', (t) => {
  t.deepEqual(decodeKubeProtobuf(envelope('v1', 'Namespace', []), nsExpected), {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: { creationTimestamp: null },
    spec: {},
    status: {},
  });
});

test('Time reads as metav1.Time.Unmarshal: an empty message is the zero time (null), else time.Unix(seconds, nanos)', (t) => {
  const meta = (time: Bytes) => decodeKubeProtobuf(envelope('v1', 'Namespace', msg(1, s(1, 'x'), msg(8, time))), nsExpected).metadata as Record<string, unknown>;
  t.is(meta([]).creationTimestamp, null);
  t.is(meta(vi(1, -62135596800)).creationTimestamp, null, "Go's zero time.Time");
  // Fields on the wire, even zero ones, make a real instant: the Unix epoch.
  t.is(meta([...vi(1, 0), ...vi(2, 0)]).creationTimestamp, '1970-01-01T00:00:00Z');
  t.is(meta(vi(1, 0)).creationTimestamp, '1970-01-01T00:00:00Z');
  t.is(meta(vi(2, 5)).creationTimestamp, '1970-01-01T00:00:00Z', 'nanos are not printed');
  t.is(meta([...vi(1, t2026), ...vi(2, 1_500_000_000)]).creationTimestamp, '2026-01-02T03:04:06Z', 'nanos beyond a second carry');
  t.is(meta(vi(1, -1)).creationTimestamp, '1969-12-31T23:59:59Z');
  t.is(meta(vi(1, 253402300799)).creationTimestamp, '9999-12-31T23:59:59Z');
  apiError(t, () => meta(vi(1, 253402300800)), 400);
  // A present but empty deletionTimestamp (a non-nil *Time holding the zero time) is null, an absent one is left out.
  const del = decodeKubeProtobuf(envelope('v1', 'Namespace', msg(1, msg(9))), nsExpected).metadata as Record<string, unknown>;
  t.true('deletionTimestamp' in del);
  t.is(del.deletionTimestamp, null);
  t.false('deletionTimestamp' in meta([]));
});

test('int64 values beyond 32 bits and negative ones survive', (t) => {
  const obj = decodeKubeProtobuf(envelope('v1', 'Namespace', msg(1, vi(7, 2 ** 40 + 1), vi(10, -5))), nsExpected);
  t.like(obj.metadata as object, { generation: 2 ** 40 + 1, deletionGracePeriodSeconds: -5 });
});

test('unknown fields are skipped, as Go does', (t) => {
  const raw = [...msg(1, s(1, 'demo'), s(99, 'future'), vi(100, 7), [...tag(101, 5), 1, 2, 3, 4], [...tag(102, 3), ...vi(1, 1), ...tag(102, 4)]), ...s(50, 'x')];
  t.is((decodeKubeProtobuf(envelope('v1', 'Namespace', raw), nsExpected).metadata as { name: string }).name, 'demo');
});

test('DeleteOptions decode under any apiVersion with pointer fields kept when zero', (t) => {
  const raw = [...vi(1, 0), ...msg(2, s(1, 'uid-1'), s(2, '7')), ...vi(3, 0), ...s(4, 'Foreground'), ...s(5, 'All'), ...vi(6, 1)];
  for (const apiVersion of ['meta.k8s.io/v1', 'v1', 'apps/v1']) {
    t.deepEqual(decodeKubeProtobuf(envelope(apiVersion, 'DeleteOptions', raw), { apiVersion: 'v1', kind: 'DeleteOptions' }), {
      kind: 'DeleteOptions',
      apiVersion,
      gracePeriodSeconds: 0,
      preconditions: { uid: 'uid-1', resourceVersion: '7' },
      orphanDependents: false,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
      ignoreStoreReadErrorWithClusterBreakingPotential: true,
    });
  }
  t.deepEqual(decodeKubeProtobuf(envelope('meta.k8s.io/v1', 'DeleteOptions', []), nsExpected), { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' });
  t.deepEqual(decodeKubeProtobuf(envelope('meta.k8s.io/v1', 'DeleteOptions', msg(2)), nsExpected), {
    kind: 'DeleteOptions',
    apiVersion: 'meta.k8s.io/v1',
    preconditions: {},
  });
});

test('an envelope without typeMeta takes apiVersion and kind from the endpoint (copyKindDefaults)', (t) => {
  const body = Buffer.from([...magic, ...bytesField(2, msg(1, s(1, 'demo')))]);
  t.like(decodeKubeProtobuf(body, nsExpected), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } });
});

// ---- round trips through the encoder -----------------------------------------------------------------------------

test('round trip: full Namespace JSON -> protobuf -> identical JSON', (t) => {
  const bytes = encodeKubeProtobuf(fullNamespaceJSON);
  t.deepEqual([...bytes.subarray(0, 4)], magic);
  t.deepEqual(decodeKubeProtobuf(bytes, nsExpected), fullNamespaceJSON);
  t.deepEqual(unwrapKubeProtobuf(bytes), { apiVersion: 'v1', kind: 'Namespace', raw: unwrapKubeProtobuf(bytes).raw, contentEncoding: '', contentType: '' });
});

test('round trip: minimal and DeleteOptions objects', (t) => {
  const minimal = { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'demo', creationTimestamp: null }, spec: {}, status: {} };
  t.deepEqual(decodeKubeProtobuf(encodeKubeProtobuf(minimal), nsExpected), minimal);
  const del = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 30, propagationPolicy: 'Background', dryRun: ['All'] };
  t.deepEqual(decodeKubeProtobuf(encodeKubeProtobuf(del), nsExpected), del);
  const empty = { kind: 'DeleteOptions', apiVersion: 'v1' };
  t.deepEqual(decodeKubeProtobuf(encodeKubeProtobuf(empty), nsExpected), empty);
});

test('encoder normalizes input the way Go decoding JSON would', (t) => {
  const input = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: 'n',
      namespace: '',
      generation: 0,
      labels: {},
      finalizers: [],
      creationTimestamp: '2026-01-02T05:04:05.123456789+02:00',
      deletionTimestamp: null,
      managedFields: [{ manager: 'm', fieldsV1: null }],
    },
    extra: 'dropped',
  };
  t.deepEqual(decodeKubeProtobuf(encodeKubeProtobuf(input), nsExpected), {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: { name: 'n', creationTimestamp: '2026-01-02T03:04:05Z', managedFields: [{ manager: 'm' }] },
    spec: {},
    status: {},
  });
});

test('encoder writes the bytes Go writes (non-pointer fields always, map entries sorted)', (t) => {
  const bytes = encodeKubeProtobuf({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo', labels: { b: '2', a: '1' } } });
  const expected = envelope(
    'v1',
    'Namespace',
    [
      ...msg(1, s(1, 'demo'), s(2, ''), s(3, ''), s(4, ''), s(5, ''), s(6, ''), vi(7, 0), msg(8), entry(11, 'a', '1'), entry(11, 'b', '2')),
      ...msg(2),
      ...msg(3, s(1, '')),
    ],
    [...s(3, ''), ...s(4, '')],
  );
  t.is(bytes.toString('hex'), expected.toString('hex'));
});

test('encoder refuses kinds without protobuf (406) and ill-typed objects (500)', (t) => {
  apiError(t, () => encodeKubeProtobuf({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }), 406);
  apiError(t, () => encodeKubeProtobuf({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 5 } }), 500);
  apiError(t, () => encodeKubeProtobuf({ apiVersion: 'v1', kind: 'Namespace', metadata: { creationTimestamp: 'yesterday' } }), 500);
  apiError(t, () => encodeKubeProtobuf({ kind: 'Namespace' }), 500);
  const codec = new KubeProtobufCodec();
  t.true(codec.encodes({ apiVersion: 'v1', kind: 'Namespace' }));
  t.true(codec.encodes({ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' }));
  t.false(codec.encodes({ apiVersion: 'example.com/v1', kind: 'Widget' }));
  t.false(codec.encodes({ apiVersion: 'v1', kind: 'Pod' }));
});

// ---- refusals ----------------------------------------------------------------------------------------------------

test('missing or wrong magic prefix is a 400', (t) => {
  const good = envelope('v1', 'Namespace', msg(1, s(1, 'demo')));
  const wrong = Buffer.from(good);
  wrong[3] = 0x01;
  t.regex(apiError(t, () => decodeKubeProtobuf(wrong, nsExpected), 400).message, /expected prefix \[107 56 115 0\]/);
  // kube's create handler (transformDecodeError + summarizeData): the type it wanted and the body's first 30 bytes.
  t.is(
    apiError(t, () => decodeKubeProtobuf(Buffer.from('{"kind":"Namespace","apiVersion":"v1"}'), nsExpected), 400).message,
    'the object provided is unrecognized (must be of type Namespace): provided data does not appear to be a protobuf message, ' +
      'expected prefix [107 56 115 0] ({"kind":"Namespace","apiVersio ...)',
  );
  t.is(
    apiError(t, () => decodeKubeProtobuf(Buffer.from([0x6b, 0x38, 0x73, 0x01, 0x0a]), nsExpected), 400).message,
    'the object provided is unrecognized (must be of type Namespace): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (6b3873010a)',
  );
  t.regex(apiError(t, () => decodeKubeProtobuf(Buffer.alloc(0), nsExpected), 400).message, /: empty data \(<empty>\)$/);
  t.regex(apiError(t, () => decodeKubeProtobuf(Buffer.from(magic), nsExpected), 400).message, /: empty body \(6b387300\)$/);
  apiError(t, () => decodeKubeProtobuf(good.subarray(4), nsExpected), 400);
  apiError(t, () => decodeKubeProtobuf(Buffer.from('{"kind":"Namespace","apiVersion":"v1"}'), nsExpected), 400);
  apiError(t, () => decodeKubeProtobuf(Buffer.alloc(0), nsExpected), 400);
  apiError(t, () => decodeKubeProtobuf(Buffer.from('k8s'), nsExpected), 400);
  apiError(t, () => decodeKubeProtobuf(Buffer.from(magic), nsExpected), 400);
  t.is(apiError(t, () => decodeKubeProtobuf(wrong, nsExpected), 400).reason, 'BadRequest');
});

test('truncated bodies are 400s (or, cut at a field boundary, still valid)', (t) => {
  const good = envelope('v1', 'Namespace', fullNamespaceRaw, [...s(3, ''), ...s(4, '')]);
  let refused = 0;
  for (let cut = 0; cut < good.length; cut++) {
    try {
      decodeKubeProtobuf(good.subarray(0, cut), nsExpected);
    } catch (err) {
      t.true(err instanceof ApiError, `cut ${cut}: ${String(err)}`);
      t.is((err as ApiError).code, 400, `cut ${cut}`);
      refused++;
    }
  }
  t.true(refused >= good.length - 6, `only ${refused} of ${good.length} prefixes refused`);
  // Cut inside the inner object: the raw field's length runs past the end.
  apiError(t, () => decodeKubeProtobuf(good.subarray(0, 40), nsExpected), 400);
});

test('malformed protobuf is a 400: wrong wire types, bad varints, bad lengths, illegal tags', (t) => {
  const ns = (raw: Bytes) => () => decodeKubeProtobuf(envelope('v1', 'Namespace', raw), nsExpected);
  t.regex(apiError(t, ns(msg(1, vi(1, 5))), 400).message, /wrong wireType/, 'name sent as a varint');
  apiError(t, ns(msg(1, s(7, 'x'))), 400); // generation as bytes
  apiError(t, ns(msg(1, [...tag(11, 0), 1])), 400); // labels map as a varint
  apiError(t, ns(msg(1, msg(11, vi(1, 3)))), 400); // map key as a varint
  apiError(t, ns([...tag(1, 2), 0xff, 0xff, 0xff, 0xff, 0x0f]), 400); // length far beyond the body
  apiError(t, ns([...tag(1, 2), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]), 400); // 11-byte varint
  apiError(t, ns([...tag(1, 0), 0x80]), 400); // truncated varint
  apiError(t, ns([0x00, 0x00]), 400); // field number 0
  apiError(t, ns([...tag(5, 4)]), 400); // end group without start
  apiError(t, ns([...tag(5, 6), 0]), 400); // wire type 6
  apiError(t, ns([...tag(5, 7), 0]), 400); // wire type 7
  apiError(t, ns([...tag(5, 1), 1, 2, 3]), 400); // fixed64 cut short
  apiError(t, ns(msg(1, msg(17, msg(7, s(1, '{not json'))))), 400); // FieldsV1 is not JSON
  apiError(t, ns(msg(1, msg(17, msg(7, s(1, '[['.repeat(2000) + ']]'.repeat(2000)))))), 400); // FieldsV1 too deep
  // Malformed envelope and unsupported envelope encodings.
  apiError(t, () => decodeKubeProtobuf(Buffer.from([...magic, ...tag(1, 0), 1]), nsExpected), 400);
  apiError(t, () => decodeKubeProtobuf(envelope('v1', 'Namespace', [], s(3, 'gzip')), nsExpected), 400);
  apiError(t, () => decodeKubeProtobuf(envelope('v1', 'Namespace', [], s(4, 'application/json')), nsExpected), 400);
  t.notThrows(() => decodeKubeProtobuf(envelope('v1', 'Namespace', [], s(4, kubeProtobufMediaType)), nsExpected));
});

test('deeply nested unknown groups fail fast with a 400 instead of overflowing', (t) => {
  const deep = [...Array(200_000).fill(tag(9, 3)).flat()];
  const started = Date.now();
  apiError(t, () => decodeKubeProtobuf(envelope('v1', 'Namespace', deep), nsExpected), 400);
  t.true(Date.now() - started < 2000);
});

test('random garbage never crashes or hangs: every failure is an ApiError 400', (t) => {
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const valid = envelope('v1', 'Namespace', fullNamespaceRaw);
  const started = Date.now();
  let decoded = 0;
  for (let i = 0; i < 3000; i++) {
    let body: Buffer;
    if (i % 2 === 0) {
      body = Buffer.from([...magic, ...Array.from({ length: Math.floor(rand() * 200) }, () => Math.floor(rand() * 256))]);
    } else {
      body = Buffer.from(valid);
      for (let flips = 1 + Math.floor(rand() * 4); flips > 0; flips--) body[4 + Math.floor(rand() * (body.length - 4))] = Math.floor(rand() * 256);
    }
    try {
      const obj = decodeKubeProtobuf(body, nsExpected);
      t.is(typeof obj, 'object');
      decoded++;
    } catch (err) {
      if (!(err instanceof ApiError) || (err.code !== 400 && err.code !== 415)) {
        t.fail(`input ${body.toString('hex')} threw ${String(err)}`);
        return;
      }
    }
  }
  t.true(Date.now() - started < 10_000);
  t.log(`${decoded} of 3000 mutated inputs still decoded`);
});

test('kinds without a protobuf encoding are refused with 415 (custom resources have none in kube either)', (t) => {
  const err = apiError(t, () => decodeKubeProtobuf(envelope('apps/v1', 'Deployment', []), { apiVersion: 'apps/v1', kind: 'Deployment' }), 415);
  t.is(err.reason, 'UnsupportedMediaType');
  t.regex(err.message, /application\/json, application\/yaml/);
  apiError(t, () => decodeKubeProtobuf(envelope('example.com/v1', 'Widget', []), { apiVersion: 'example.com/v1', kind: 'Widget' }), 415);
  apiError(t, () => decodeKubeProtobuf(envelope('v2', 'Namespace', []), nsExpected), 415);
});

// ---- plugin contract -----------------------------------------------------------------------------------------------

test('kubeProtobufCodec() registers one codec under Tokens.Codec for protobuf bodies, responses and watch streams', (t) => {
  const c = container.createChildContainer();
  c.registerInstance(Tokens.Registry, new ResourceTypeRegistry());
  kubeProtobufCodec()(c);
  const codecs = c.resolveAll(Tokens.Codec);
  t.is(codecs.length, 1);
  const codec = codecs[0];
  t.true(codec instanceof KubeProtobufCodec);
  t.is(codec.mediaType, 'application/vnd.kubernetes.protobuf');
  t.deepEqual(codec.bodyMediaTypes, ['application/vnd.kubernetes.protobuf']);
  t.is(codec.stream?.contentType, 'application/vnd.kubernetes.protobuf;stream=watch');
  const obj = codec.decode(envelope('v1', 'Namespace', msg(1, s(1, 'demo'))), nsExpected);
  t.like(obj as object, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } });
  t.like(codec.decode(codec.encode(obj as object) as Buffer, nsExpected) as object, { metadata: { name: 'demo' } });
  apiError(t, () => codec.decode(Buffer.from('nope'), nsExpected), 400);
});
