// Kubernetes types with their own JSON form (MicroTime, Duration, IntOrString) through the generic converter, and
// Go's time.Duration text both ways.
import test from 'ava';
import protobuf from 'protobufjs';
import { messageFromJSON, messageToJSON } from '../../../../../plugins/codecs/protobuf/index.js';
import { formatGoDuration } from '../../../../../lib/go/duration.js';
import { parseGoDuration } from '../../../../../plugins/codecs/protobuf/go-time.js';
import { intstrProto } from '../../../../../plugins/codecs/protobuf/protos/intstr.js';
import { metaV1Proto } from '../../../../../plugins/codecs/protobuf/protos/meta-v1.js';
import { runtimeProto } from '../../../../../plugins/codecs/protobuf/protos/runtime.js';

// A message of the test's own that uses the Kubernetes types, the way a generated custom resource message would.
const root = new protobuf.Root();
for (const text of [runtimeProto, intstrProto, metaV1Proto]) protobuf.parse(text, root, { keepCase: true });
protobuf.parse(
  `syntax = "proto2";
   package kapi.test;
   message Sample {
     optional .k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime renewTime = 1;
     optional .k8s.io.apimachinery.pkg.apis.meta.v1.Duration timeout = 2;
     optional .k8s.io.apimachinery.pkg.util.intstr.IntOrString port = 3;
     repeated .k8s.io.apimachinery.pkg.util.intstr.IntOrString ports = 4;
     optional .k8s.io.apimachinery.pkg.apis.meta.v1.Time at = 5;
   }`,
  root,
  { keepCase: true },
);
root.resolveAll();
const Sample = root.lookupType('kapi.test.Sample');
const viaWire = (json: Record<string, unknown>) => messageToJSON(Sample, Sample.decode(Sample.encode(messageFromJSON(Sample, json)).finish()) as never);

test('time.Duration.String() as Go prints it', (t) => {
  const cases: [bigint, string][] = [
    [0n, '0s'],
    [1n, '1ns'],
    [1500n, '1.5µs'],
    [1_200_000n, '1.2ms'],
    [1_000_000_000n, '1s'],
    [1_500_000_000n, '1.5s'],
    [90_000_000_000n, '1m30s'],
    [3_600_000_000_000n, '1h0m0s'],
    [3_723_500_000_000n, '1h2m3.5s'],
    [-5_000_000_000n, '-5s'],
    [2n ** 63n - 1n, '2562047h47m16.854775807s'],
    [-(2n ** 63n), '-2562047h47m16.854775808s'],
  ];
  for (const [ns, text] of cases) t.is(formatGoDuration(ns), text, `${ns}`);
});

test('time.ParseDuration accepts what Go accepts and refuses the rest', (t) => {
  const ok: [string, bigint][] = [
    ['0', 0n],
    ['-0', 0n],
    ['1h30m', 5_400_000_000_000n],
    ['1.5h', 5_400_000_000_000n],
    ['-2m', -120_000_000_000n],
    ['300ms', 300_000_000n],
    ['.5s', 500_000_000n],
    ['1.s', 1_000_000_000n],
    ['2us', 2000n],
    ['2µs', 2000n],
    ['2μs', 2000n],
    ['1h2m3.5s', 3_723_500_000_000n],
  ];
  for (const [text, ns] of ok) t.is(parseGoDuration(text), ns, text);
  for (const bad of ['', '1', 'h', '1x', '.s', '1h-2m', '+', '9999999999h', ' 1s']) {
    t.throws(() => parseGoDuration(bad), { message: `time: invalid duration ${JSON.stringify(bad)}` }, bad);
  }
});

test('Duration, MicroTime and IntOrString read and write their JSON forms', (t) => {
  t.deepEqual(viaWire({ renewTime: '2026-01-02T03:04:05.123456Z', timeout: '1m30s', port: 8080, ports: ['http', 0], at: '2026-01-02T05:04:05+02:00' }), {
    renewTime: '2026-01-02T03:04:05.123456Z',
    timeout: '1m30s',
    port: 8080,
    ports: ['http', 0],
    at: '2026-01-02T03:04:05Z',
  });
  // Non-pointer zero values: MicroTime/Time null, Duration "0s", IntOrString 0 (Go writes all of them).
  t.deepEqual(viaWire({}), { renewTime: null, timeout: '0s', port: 0, at: null });
  t.deepEqual(viaWire({ port: 'web' }).port, 'web');
  // MicroTime keeps microseconds only, and always prints six digits.
  t.is(viaWire({ renewTime: '2026-01-02T03:04:05.987654321Z' }).renewTime, '2026-01-02T03:04:05.987654Z');
  t.is(viaWire({ renewTime: '2026-01-02T03:04:05Z' }).renewTime, '2026-01-02T03:04:05.000000Z');
  // Durations beyond 2^53 ns keep every digit.
  t.is(viaWire({ timeout: '2562047h47m16.854775807s' }).timeout, '2562047h47m16.854775807s');
});

test('on the wire: IntOrString writes type, intVal and strVal; Duration nanoseconds; an empty Time nothing', (t) => {
  const m = Sample.toObject(Sample.decode(Sample.encode(messageFromJSON(Sample, { port: 'web', timeout: '2s' })).finish()), { longs: Number });
  t.deepEqual(m.port, { type: 1, intVal: 0, strVal: 'web' });
  t.deepEqual(m.timeout, { duration: 2_000_000_000 });
  t.deepEqual(m.at, {}, 'the zero time is an empty message');
});

test('bad values are refused with the field path', (t) => {
  t.throws(() => messageFromJSON(Sample, { port: 1.5 }), { message: /^port: an IntOrString must be an int32 or a string, not 1.5$/ });
  t.throws(() => messageFromJSON(Sample, { ports: [2 ** 31] }), { message: /^ports\[0\]: an IntOrString/ });
  t.throws(() => messageFromJSON(Sample, { timeout: '3 days' }), { message: 'timeout: time: invalid duration "3 days"' });
  t.throws(() => messageFromJSON(Sample, { at: 'yesterday' }), { message: /^at: parsing time "yesterday"/ });
  // metav1.Time is time.Parse(time.RFC3339, …): Go's own error texts, and no lowercase "t" or "z".
  t.throws(() => messageFromJSON(Sample, { at: '2026-01-02t03:04:05Z' }), {
    message: 'at: parsing time "2026-01-02t03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t03:04:05Z" as "T"',
  });
  t.throws(() => messageFromJSON(Sample, { at: '2026-02-30T03:04:05Z' }), { message: 'at: parsing time "2026-02-30T03:04:05Z": day out of range' });
  t.throws(() => messageToJSON(Sample, Sample.decode(Sample.encode({ port: { type: 2 } }).finish()) as never), { message: 'impossible IntOrString.Type' });
});
