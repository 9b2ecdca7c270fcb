// metav1.MicroTime as JSON: time.Parse(RFC3339Micro, …) with Go's error texts, and the UTC six-digit form kube writes.
import test from 'ava';
import { canonicalMicroTime, parseMicroTimeOrError } from '../../../../lib/go/micro-time.js';

test('exactly six fraction digits, any offset, are written back in UTC', (t) => {
  t.is(canonicalMicroTime('2026-01-02T03:04:05.123456Z'), '2026-01-02T03:04:05.123456Z');
  t.is(canonicalMicroTime('2026-01-02T04:04:05.000001+01:00'), '2026-01-02T03:04:05.000001Z');
  t.is(canonicalMicroTime('2026-01-02T03:04:05,123456Z'), '2026-01-02T03:04:05.123456Z', 'Go takes a comma before the fraction');
});

test("Go's errors for a missing, short or long fraction and for bad dates, naming the micro layout", (t) => {
  const layout = '"2006-01-02T15:04:05.000000Z07:00"';
  t.is(parseMicroTimeOrError('2026-01-02T03:04:05Z'), `parsing time "2026-01-02T03:04:05Z" as ${layout}: cannot parse "Z" as ".000000"`);
  t.is(parseMicroTimeOrError('2026-01-02T03:04:05.123Z'), `parsing time "2026-01-02T03:04:05.123Z" as ${layout}: cannot parse ".123Z" as ".000000"`);
  t.is(parseMicroTimeOrError('2026-01-02T03:04:05.1234567Z'), `parsing time "2026-01-02T03:04:05.1234567Z" as ${layout}: cannot parse "7Z" as "Z07:00"`);
  t.is(parseMicroTimeOrError('2026-13-02T03:04:05.123456Z'), 'parsing time "2026-13-02T03:04:05.123456Z": month out of range');
  t.is(parseMicroTimeOrError('yesterday'), `parsing time "yesterday" as ${layout}: cannot parse "yesterday" as "2006"`);
  t.is(canonicalMicroTime('yesterday'), undefined);
});
