// Go's time.Parse(time.RFC3339, …) and t.Format(time.RFC3339 / RFC3339Nano), pinned against Go's documented behaviour.
import test from 'ava';
import { formatDateRFC3339, formatRFC3339, goZeroTimeUnixSeconds, isZeroTime, parseRFC3339, parseRFC3339OrError, timeMillis } from '../../../../lib/go/timestamp.js';

const layout = '"2006-01-02T15:04:05Z07:00"';

test('RFC 3339 parses to Unix seconds, nanoseconds and the offset it was written with', (t) => {
  t.deepEqual(parseRFC3339('2024-02-29T12:34:56Z'), { seconds: 1709210096, nanos: 0, offset: 0 });
  t.deepEqual(parseRFC3339('2024-02-29T12:34:56.5Z'), { seconds: 1709210096, nanos: 500_000_000, offset: 0 });
  t.deepEqual(parseRFC3339('2024-02-29T12:34:56.123456789Z'), { seconds: 1709210096, nanos: 123_456_789, offset: 0 });
  t.deepEqual(parseRFC3339('2024-02-29T14:34:56+02:00'), { seconds: 1709210096, nanos: 0, offset: 7200 });
  t.deepEqual(parseRFC3339('2024-02-29T07:04:56.000001-05:30'), { seconds: 1709210096, nanos: 1000, offset: -19800 });
  t.deepEqual(parseRFC3339('1969-12-31T23:59:59Z'), { seconds: -1, nanos: 0, offset: 0 });
});

test('the zero time and years before 1000 (four digits, zero-padded)', (t) => {
  const zero = parseRFC3339('0001-01-01T00:00:00Z')!;
  t.deepEqual(zero, { seconds: goZeroTimeUnixSeconds, nanos: 0, offset: 0 });
  t.true(isZeroTime(zero));
  t.false(isZeroTime(parseRFC3339('0001-01-01T00:00:00.000000001Z')!));
  t.is(parseRFC3339('0999-03-01T00:00:00Z')!.seconds, Date.UTC(999, 2, 1) / 1000);
  t.is(parseRFC3339('0000-01-01T00:00:00Z')!.seconds, -62167219200);
  t.is(parseRFC3339('999-03-01T00:00:00Z'), undefined);
  t.is(parseRFC3339('10000-01-01T00:00:00Z'), undefined);
});

test('what Go\'s layout parser also takes: a one-digit hour, a comma, more than nine fraction digits, offsets to 24h', (t) => {
  t.deepEqual(parseRFC3339('2024-01-01T1:00:00Z'), parseRFC3339('2024-01-01T01:00:00Z'));
  t.deepEqual(parseRFC3339('2024-01-01T00:00:00,25Z'), parseRFC3339('2024-01-01T00:00:00.25Z'));
  t.is(parseRFC3339('2024-01-01T00:00:00.1234567899Z')!.nanos, 123_456_789);
  t.is(parseRFC3339('2024-01-01T00:00:00+24:00')!.offset, 86400);
  t.is(parseRFC3339('2024-01-01T00:00:00-00:60')!.offset, -3600);
});

test('what Go refuses, with its error texts', (t) => {
  const bad = (text: string) => `parsing time ${JSON.stringify(text)}`;
  t.is(parseRFC3339OrError(''), `${bad('')} as ${layout}: cannot parse "" as "2006"`);
  t.is(parseRFC3339OrError('2024-01-01'), `${bad('2024-01-01')} as ${layout}: cannot parse "" as "T"`);
  t.is(parseRFC3339OrError('2024-1-01T00:00:00Z'), `${bad('2024-1-01T00:00:00Z')} as ${layout}: cannot parse "1-01T00:00:00Z" as "01"`);
  t.is(parseRFC3339OrError('2024-01-01t00:00:00Z'), `${bad('2024-01-01t00:00:00Z')} as ${layout}: cannot parse "t00:00:00Z" as "T"`);
  t.is(parseRFC3339OrError('2024-01-01T00:00:00z'), `${bad('2024-01-01T00:00:00z')} as ${layout}: cannot parse "z" as "Z07:00"`);
  t.is(parseRFC3339OrError('2024-01-01T00:00:00'), `${bad('2024-01-01T00:00:00')} as ${layout}: cannot parse "" as "Z07:00"`);
  t.is(parseRFC3339OrError('2024-01-01T00:00:00+0100'), `${bad('2024-01-01T00:00:00+0100')} as ${layout}: cannot parse "+0100" as "Z07:00"`);
  t.is(parseRFC3339OrError('2024-13-01T00:00:00Z'), `${bad('2024-13-01T00:00:00Z')}: month out of range`);
  t.is(parseRFC3339OrError('2023-02-29T00:00:00Z'), `${bad('2023-02-29T00:00:00Z')}: day out of range`);
  t.is(parseRFC3339OrError('2024-01-00T00:00:00Z'), `${bad('2024-01-00T00:00:00Z')}: day out of range`);
  t.is(parseRFC3339OrError('2024-01-01T24:00:00Z'), `${bad('2024-01-01T24:00:00Z')}: hour out of range`);
  t.is(parseRFC3339OrError('2024-01-01T00:60:00Z'), `${bad('2024-01-01T00:60:00Z')}: minute out of range`);
  t.is(parseRFC3339OrError('2024-01-01T00:00:60Z'), `${bad('2024-01-01T00:00:60Z')}: second out of range`);
  t.is(parseRFC3339OrError('2024-01-01T00:00:00+25:00'), `${bad('2024-01-01T00:00:00+25:00')}: time zone offset hour out of range`);
  t.is(parseRFC3339OrError('2024-01-01T00:00:00Zjunk'), `${bad('2024-01-01T00:00:00Zjunk')}: extra text: "junk"`);
  // The time package quotes every byte outside printable ASCII as \xNN.
  t.is(parseRFC3339OrError('2024-01-01T00:00:00Zé'), 'parsing time "2024-01-01T00:00:00Z\\xc3\\xa9": extra text: "\\xc3\\xa9"');
  t.is(parseRFC3339('2024-01-01T00:00:00Zjunk'), undefined);
});

test('RFC3339Nano: the shortest fraction, in the time\'s own offset; a fixed number of digits on request', (t) => {
  const at = (text: string) => parseRFC3339(text)!;
  t.is(formatRFC3339(at('2024-02-29T12:34:56.500Z')), '2024-02-29T12:34:56.5Z');
  t.is(formatRFC3339(at('2024-02-29T12:34:56.000000000Z')), '2024-02-29T12:34:56Z');
  t.is(formatRFC3339(at('2024-02-29T14:34:56.123456789+02:00')), '2024-02-29T14:34:56.123456789+02:00');
  t.is(formatRFC3339(at('2024-02-29T07:04:56-05:30')), '2024-02-29T07:04:56-05:30');
  t.is(formatRFC3339(at('2024-02-29T12:34:56+00:00')), '2024-02-29T12:34:56Z');
  t.is(formatRFC3339(at('0001-01-01T00:00:00Z')), '0001-01-01T00:00:00Z');
  t.is(formatRFC3339(at('0999-12-31T23:59:59.1Z')), '0999-12-31T23:59:59.1Z');
  t.is(formatRFC3339(at('2024-02-29T12:34:56.987654321Z'), 0), '2024-02-29T12:34:56Z');
  t.is(formatRFC3339(at('2024-02-29T12:34:56.9876Z'), 6), '2024-02-29T12:34:56.987600Z');
  t.is(formatRFC3339({ seconds: -1, nanos: 0, offset: 0 }), '1969-12-31T23:59:59Z');
});

test('JavaScript dates: metav1.Time\'s whole seconds in UTC, and milliseconds back', (t) => {
  t.is(formatDateRFC3339(new Date(Date.UTC(2024, 1, 29, 12, 34, 56, 999))), '2024-02-29T12:34:56Z');
  t.is(timeMillis(parseRFC3339('2024-02-29T14:34:56.123999+02:00')!), Date.UTC(2024, 1, 29, 12, 34, 56, 123));
});
