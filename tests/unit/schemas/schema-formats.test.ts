import test from 'ava';
import { compileGoRegexp } from '../../../lib/go/go-regexp.js';
import { goFloat, goJSON, goNumber, goQuote, goSharpV, kubeBadValue } from '../../../lib/go/go-values.js';
import { effectiveFormat, formatValidator } from '../../../schemas/string-formats.js';

function check(format: string, valid: string[], invalid: string[]): (t: import('ava').ExecutionContext) => void {
  return (t) => {
    const v = formatValidator(format);
    t.truthy(v, format);
    for (const s of valid) t.true(v!(s), `${format} should accept ${JSON.stringify(s)}`);
    for (const s of invalid) t.false(v!(s), `${format} should refuse ${JSON.stringify(s)}`);
  };
}

test('formats kube-apiserver keeps, and those it drops', (t) => {
  for (const f of ['date-time', 'datetime', 'date', 'duration', 'uuid', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uri', 'byte', 'password']) {
    t.is(effectiveFormat(f), f, f);
  }
  for (const f of ['int32', 'int64', 'float', 'double', 'k8s-short-name', 'quantity', 'Date-Time', 'whatever', undefined]) t.is(effectiveFormat(f), '', String(f));
});

test('date-time', check('date-time', ['2024-05-01T10:00:00Z', '2024-05-01t10:00:00.123+02:00', '2024-02-29T23:59:59-01:00'], ['2024-05-01', '2024-05-01T24:00:00Z', '2023-02-29T10:00:00Z', '2024-05-01T10:00:00', 'x']));
test('date', check('date', ['2024-05-01', '2024-02-29'], ['2024-5-1', '2023-02-29', '2024-13-01', '2024-05-01T00:00:00Z']));
// time.ParseDuration's int64 edge is exact: -2^63 ns parses, 2^63 ns does not.
test('duration', check('duration', ['1h30m', '-1.5s', '0', '300ms', '2µs', '3 days', '1 h', '5 weeks', '9223372036854775807ns', '-9223372036854775808ns'], ['', '1', 'h', '5 parsecs', '1hx', '.s', '9223372036854775808ns', '2562047h47m16.854775808s']));
test('uuid', check('uuid', ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'], ['123e4567-e89b-12d3-a456', 'x']));
test('email', check('email', ['a@b.c', 'first.last@example.com', 'John Doe <john@example.com>', '"quoted"@example.com', 'user@[10.0.0.1]'], ['plain', 'a@', '@b', 'a..b@c', 'a@b.', 'a b@c']));
test('hostname', check('hostname', ['example.com', 'localhost', 'a-b.example.org', 'xn--bcher-kva.example'], ['-bad.com', 'bad-.com', 'a_b.com', 'a'.repeat(64) + '.com', 'ex ample.com']));
test('ipv4', check('ipv4', ['10.0.0.1', '255.255.255.255', '010.000.000.001', '::ffff:10.0.0.1'], ['256.0.0.1', '10.0.0', '::1', 'x']));
test('ipv6', check('ipv6', ['::1', '2001:db8::8a2e:370:7334', '::ffff:10.0.0.1', '::'], ['10.0.0.1', '2001:db8::8a2e::1', '12345::1', 'fe80::1%eth0', ':::']));
test('cidr', check('cidr', ['10.0.0.0/8', '2001:db8::/32', '010.0.0.0/08'], ['10.0.0.0', '10.0.0.0/33', '::/129', '10.0.0.0/x']));
test('mac', check('mac', ['00:1a:2b:3c:4d:5e', '00-1A-2B-3C-4D-5E', '001a.2b3c.4d5e', '00:00:00:00:fe:80:00:00:00:00:00:00:02:00:5e:10:00:00:00:01'], ['00:1a:2b:3c:4d', '00:1a-2b:3c:4d:5e', '001a2b3c4d5e']));
test('uri', check('uri', ['https://example.com/a?b=c', 'mailto:a@b.c', '/absolute/path', 'urn:isbn:0451450523', 'http://[::1]:8080/'], ['relative/path', '', 'http://exa mple.com/', 'http://host:port/', ':nope', '/bad%zz']));
test('byte', check('byte', ['aGVsbG8=', 'aGVsbG8h', 'YQ=='], ['', 'aGVsbG8', 'not base64!']));
test('bsonobjectid, hexcolor, rgbcolor, ssn, isbn, creditcard, password', (t) => {
  check('bsonobjectid', ['507f1f77bcf86cd799439011'], ['507f1f77bcf86cd79943901'])(t);
  check('hexcolor', ['#fff', 'A0B1C2'], ['#ffff'])(t);
  check('rgbcolor', ['rgb(255, 0, 10)'], ['rgb(256,0,0)'])(t);
  check('ssn', ['123-45-6789', '123 45 6789'], ['123456789'])(t);
  check('isbn', ['0321751043', '978-0321751041'], ['0321751044'])(t);
  check('creditcard', ['4111 1111 1111 1111'], ['4111 1111 1111 1112'])(t);
  check('password', ['anything'], [])(t);
});

test('Go quoting', (t) => {
  t.is(goQuote('plain'), '"plain"');
  t.is(goQuote('a"b\\c'), '"a\\"b\\\\c"');
  t.is(goQuote('tab\tnl\n\x01\x7f'), '"tab\\tnl\\n\\x01\\x7f"');
  t.is(goQuote('héllo ✓ 😀'), '"héllo ✓ 😀"');
  t.is(goQuote('nb\u00a0sp\u200b'), '"nb\\u00a0sp\\u200b"');
});

test('Go number and value printing', (t) => {
  t.is(goNumber(-2), '-2');
  t.is(goNumber(1.5), '1.5');
  t.is(goFloat(1), '1');
  t.is(goFloat(100000), '100000');
  t.is(goFloat(1000000), '1e+06');
  t.is(goFloat(1234567.5), '1.2345675e+06');
  t.is(goFloat(0.0001), '0.0001');
  t.is(goFloat(0.00001), '1e-05');
  t.is(goFloat(1e21), '1e+21');
  t.is(goNumber(12345678), '12345678');
  t.is(goSharpV({ b: [1, 'x', null], a: true }), 'map[string]interface {}{"a":true, "b":[]interface {}{1, "x", interface {}(nil)}}');
  t.is(kubeBadValue(null), '"null"');
  t.is(kubeBadValue('x'), '"x"');
  t.is(kubeBadValue(false), 'false');
  t.is(kubeBadValue([1]), '[]interface {}{1}');
  t.is(goJSON({ b: '<a>', a: 1.5 }), '{"a":1.5,"b":"\\u003ca\\u003e"}');
});

test('Go regular expressions translated to JavaScript', (t) => {
  const re = (p: string): RegExp => compileGoRegexp(p)!;
  t.true(re('(?i)^abc$').test('ABC'));
  t.true(re('^(?P<word>[a-z]+)$').test('abc'));
  t.true(re('^[[:digit:][:upper:]]+$').test('A1'));
  t.false(re('^[[:digit:]]+$').test('A1'));
  t.true(re('^a\\z').test('a'));
  t.false(re('^a\\z').test('a\n'));
  t.true(re('\\Aab').test('ab'));
  t.true(re('^a.b$').test('a\rb'), 'Go\'s . matches \\r');
  t.false(re('^a.b$').test('a\nb'));
  t.true(re('(?s)^a.b$').test('a\nb'));
  t.false(re('^\\s$').test('\u00a0'), 'Go\'s \\s is ASCII');
  t.true(re('^\\pL+$').test('héllo'));
  t.true(re('^\\Q1+1\\E$').test('1+1'));
  t.true(re('^[a\\-z]$').test('-'));
  t.true(re('^\\#\\@\\:$').test('#@:'));
  t.true(re('^[]a]+$').test(']a'));
  t.true(re('^\\x{41}$').test('A'));
});
