// The AGE kubectl shows: duration.HumanDuration of now - the timestamp, as metatable.ConvertToHumanReadableDateType.
import test from 'ava';
import { age } from '../../../../lib/go/human-duration.js';

const now = new Date('2024-01-10T00:00:00Z');

test('age of an RFC 3339 timestamp', (t) => {
  t.is(age('2024-01-09T23:59:00Z', now), '60s');
  t.is(age('2024-01-09T23:55:30Z', now), '4m30s');
  t.is(age('2024-01-07T00:00:00Z', now), '3d');
  t.is(age('2024-01-10T02:00:00+02:00', now), '0s');
  t.is(age('2024-01-10T00:00:05Z', now), '<invalid>'); // further in the future than the tolerated skew
});

test('unset timestamps are <unknown>: absent, empty, "null" and Go zero time', (t) => {
  t.is(age(undefined, now), '<unknown>');
  t.is(age('', now), '<unknown>');
  t.is(age('null', now), '<unknown>');
  t.is(age('0001-01-01T00:00:00Z', now), '<unknown>');
});

test('a timestamp that is no RFC 3339 time is <invalid>', (t) => {
  t.is(age('yesterday', now), '<invalid>');
  t.is(age('2024-01-09', now), '<invalid>');
});
