// Go's time.Duration as text: time.ParseDuration and Duration.String, pinned against Go's documented behaviour
// (and the cases of Go's own time_test.go).
import test from 'ava';
import { formatGoDuration, parseGoDuration, parseGoDurationOrError } from '../../../../lib/go/duration.js';

const s = 1_000_000_000n;
const max = 2n ** 63n - 1n;
const min = -(2n ** 63n);

test('time.ParseDuration: signed sequences of decimal numbers, each with a unit', (t) => {
  const cases: [string, bigint][] = [
    ['0', 0n],
    ['-0', 0n],
    ['+0', 0n],
    ['0s', 0n],
    ['1h2m3.5s', 3723n * s + s / 2n],
    ['-1.5h', -5400n * s],
    ['300ms', 300_000_000n],
    ['1us', 1000n],
    ['1µs', 1000n], // U+00B5 micro sign
    ['1μs', 1000n], // U+03BC Greek mu
    ['1ns', 1n],
    ['.5s', s / 2n],
    ['1.s', s],
    ['+5m', 300n * s],
    ['1h1h', 7200n * s],
    ['1.004s', 1_004_000_000n],
    ['100.00100s', 100n * s + 1_000_000n],
    ['0.3333333333333333333h', 1200n * s], // more than nine fraction digits
    ['9007199254740993ns', 2n ** 53n + 1n], // not exact as a float64
    ['0.100000000000000000000h', 360n * s],
    ['0.830103483285477580700h', 2988n * s + 372_539_827n], // the fraction's digits stop where int64 would overflow
  ];
  for (const [text, ns] of cases) t.is(parseGoDuration(text), ns, text);
});

test('time.ParseDuration: int64 nanoseconds at most, -2^63 included', (t) => {
  t.is(parseGoDuration('9223372036854775807ns'), max);
  t.is(parseGoDuration('9223372036854775.807us'), max);
  t.is(parseGoDuration('9223372036s854ms775us807ns'), max);
  t.is(parseGoDuration('2562047h47m16.854775807s'), max);
  t.is(parseGoDuration('-9223372036854775808ns'), min);
  t.is(parseGoDuration('-2562047h47m16.854775808s'), min);
  for (const over of ['9223372036854775808ns', '9223372036854775.808us', '9223372036854ms775us808ns', '2562047h47m16.854775808s', '3000000h', '-9223372036854775809ns', '99999999999999999999ns']) {
    t.is(parseGoDuration(over), undefined, over);
  }
});

test('time.ParseDuration: no number, no unit or an unknown one is an error', (t) => {
  for (const bad of ['', '1', '3', '-', '+', 's', '.', '-.', '.s', '+.s', '1d', '1x', '1h-2m', ' 1s', '1s ', '1..5s', '1.5.5s', '1mss', 'h1', '1H', '1S']) {
    t.is(parseGoDuration(bad), undefined, JSON.stringify(bad));
  }
});

test('Duration.String: hours, minutes and seconds; sub-second values in the largest unit that keeps them whole', (t) => {
  const cases: [bigint, string][] = [
    [0n, '0s'],
    [1n, '1ns'],
    [1100n, '1.1µs'],
    [2_200_000n, '2.2ms'],
    [3_300_000_000n, '3.3s'],
    [-4n * s, '-4s'],
    [60n * s, '1m0s'],
    [3600n * s, '1h0m0s'],
    [3723n * s + s / 2n, '1h2m3.5s'],
    [-5400n * s, '-1h30m0s'],
    [max, '2562047h47m16.854775807s'],
    [min, '-2562047h47m16.854775808s'],
  ];
  for (const [ns, text] of cases) {
    t.is(formatGoDuration(ns), text, `${ns}`);
    t.is(parseGoDuration(text), ns, text);
  }
});

test("time.ParseDuration's errors: Go's text, the input quoted as the time package quotes", (t) => {
  const cases: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['abc', 'time: invalid duration "abc"'],
    ['.s', 'time: invalid duration ".s"'],
    ['5', 'time: missing unit in duration "5"'],
    ['1s2', 'time: missing unit in duration "1s2"'],
    ['5x', 'time: unknown unit "x" in duration "5x"'],
    ['3"', 'time: unknown unit "\\"" in duration "3\\""'],
    ['1 s', 'time: unknown unit " s" in duration "1 s"'],
    ['1ñ', 'time: unknown unit "\\xc3\\xb1" in duration "1\\xc3\\xb1"'],
    ['99999999999999999999x', 'time: invalid duration "99999999999999999999x"'], // the number overflows before the unit is read
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
  ];
  for (const [text, error] of cases) t.deepEqual(parseGoDurationOrError(text), { error }, text);
  t.is(parseGoDurationOrError('1m30s'), 90n * s);
});
