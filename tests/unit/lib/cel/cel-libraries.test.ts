/**
 * The CEL libraries of kapi's Kubernetes environment, table by table: every expression in a `holds` table must
 * evaluate to true, every `fails` row must end in the given runtime error, every `rejects` row in the given compile
 * error (the texts are kube-apiserver v1.32's).
 */
import test from 'ava';
import { kubernetesEnv } from '../../../../lib/cel/libraries.js';
import { celTypeOf, schemaDeclType } from '../../../../schemas/cel/schema-decl.js';
import { toCel } from '../../../../schemas/cel/schema-values.js';
import { CelError, type Value } from '../../../../lib/cel/values.js';
import type { JSONSchemaProps } from '../../../../lib/openapi/json-schema-props.js';

interface Data {
  schema: JSONSchemaProps;
  self: unknown;
}

interface Outcome {
  value?: unknown;
  error?: string;
  compileError?: string;
  cost: number;
}

function evaluate(expr: string, data?: Data): Outcome {
  let env = kubernetesEnv();
  const vars: Record<string, Value> = {};
  if (data) {
    const decl = schemaDeclType(data.schema, false)!;
    env = env.extend().declare('self', celTypeOf(decl, 'libTestSelf'));
    vars.self = toCel(data.self, decl, 'libTestSelf') as Value;
  }
  const c = env.compile(expr);
  if (!c.ast) return { compileError: c.errorText, cost: 0 };
  const r = env.program(c.ast).eval(vars);
  if (r.value instanceof CelError) return { error: r.value.message, cost: r.cost };
  return { value: r.value, cost: r.cost };
}

const S: JSONSchemaProps = { type: 'string' };
const obj = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties });
const list = (items: JSONSchemaProps, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'array', items, ...extra });

/** Expressions that must evaluate to true, per library. */
const holds: Record<string, string[]> = {
  lists: [
    '[1, 2, 2, 3].isSorted()',
    "['b', 'a'].isSorted() == false",
    '[].isSorted()',
    '[1, 2, 2, 3].sum() == 8',
    '[0.5, 0.25].sum() == 0.75',
    "[duration('1s'), duration('1m')].sum() == duration('61s')",
    '[].sum() == 0',
    'dyn([1.0, 2.0]).sum() == 3.0',
    '[3, 1, 2].min() == 1',
    "['b', 'c', 'a'].max() == 'c'",
    "[timestamp('2000-01-01T00:00:00Z'), timestamp('1999-01-01T00:00:00Z')].min() == timestamp('1999-01-01T00:00:00Z')",
    '[1, 2, 1].indexOf(1) == 0',
    '[1, 2, 1].lastIndexOf(1) == 2',
    '[1].indexOf(5) == -1',
    '[[1], [2]].indexOf([2]) == 1',
    "[{'a': 1}, {'a': 1}].lastIndexOf({'a': 1}) == 1",
  ],
  sets: [
    "sets.contains(['a', 'b'], [])",
    "sets.contains(['a', 'b'], ['b'])",
    "!sets.contains(['a', 'b'], ['c'])",
    'sets.contains([[1, 2], [3]], [[3]])',
    "sets.equivalent(['c', 'b', 'a'], ['a', 'b', 'c', 'a'])",
    "!sets.equivalent(['a'], ['a', 'b'])",
    'sets.intersects([1, 2], [2, 3])',
    '!sets.intersects([], [])',
    "sets.intersects([duration('1h')], [duration('60m')])",
  ],
  regex: [
    "'abc 123 def 456'.find('[0-9]+') == '123'",
    "'abc'.find('[0-9]+') == ''",
    "'abc 123 def 456'.findAll('[0-9]+') == ['123', '456']",
    "'abc 123 def 456'.findAll('[0-9]+', 1) == ['123']",
    "'abc 123 def 456'.findAll('[0-9]+', 0) == []",
    "'abc 123 def 456'.findAll('[0-9]+', -1) == ['123', '456']",
    "'aaa'.matches('^a+$')",
    "!'aab'.matches('^a+$')",
    "'Rook takes 👑'.matches('^[^0-9]*$')",
    // RE2 syntax: named groups as (?P<name>...), Unicode classes
    "'key=value'.find('(?P<k>[a-z]+)=') == 'key='",
    "'Δx'.matches('^\\\\p{Greek}')",
  ],
  urls: [
    "url('https://user:pass@example.com:8080/a/b?x=1&y=2&y=3#frag').getScheme() == 'https'",
    "url('https://example.com:8080/a').getHost() == 'example.com:8080'",
    "url('https://example.com:8080/a').getHostname() == 'example.com'",
    "url('https://example.com:8080/a').getPort() == '8080'",
    "url('https://example.com/').getPort() == ''",
    "url('https://[::1]:80/').getHost() == '[::1]:80'",
    "url('https://[::1]:80/').getHostname() == '::1'",
    "url('/path').getScheme() == '' && url('/path').getHost() == ''",
    "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
    "url('https://example.com').getEscapedPath() == ''",
    "url('https://example.com/p?x=1&y=2&y=3').getQuery() == {'x': ['1'], 'y': ['2', '3']}",
    "url('https://example.com/p?').getQuery() == {}",
    "isURL('https://example.com/path?q=1#f')",
    "isURL('/absolute/path')",
    "!isURL('relative/path')",
    "!isURL('https://a:b:c/')",
  ],
  quantity: [
    "isQuantity('20Mi')",
    "isQuantity('1.5e3')",
    "!isQuantity('20MB')",
    "quantity('200M') == quantity('0.2G')",
    "quantity('1Gi').isGreaterThan(quantity('1G'))",
    "quantity('100m').isLessThan(quantity('1'))",
    "quantity('1k').compareTo(quantity('1000')) == 0",
    "quantity('50k').add(quantity('20')) == quantity('50.02k')",
    "quantity('50k').add(20) == quantity('50020')",
    "quantity('50k').sub(quantity('20')) == quantity('49980')",
    "quantity('50k').sub(20) == quantity('49980')",
    "quantity('1k').asInteger() == 1000",
    "quantity('1.5').asApproximateFloat() == 1.5",
    "quantity('1.5').isInteger() == false",
    "quantity('-2').sign() == -1 && quantity('0').sign() == 0",
  ],
  format: [
    "format.dns1123Label().validate('my-name') == optional.none()",
    "format.dns1123Label().validate('MY_NAME').hasValue()",
    "format.dns1123Subdomain().validate('a.b.c') == optional.none()",
    "format.dns1035Label().validate('1abc').hasValue()",
    "format.qualifiedName().validate('example.com/name') == optional.none()",
    "format.labelValue().validate('') == optional.none()",
    "format.uuid().validate('123e4567-e89b-12d3-a456-426614174000') == optional.none()",
    "format.date().validate('2024-02-30').hasValue()",
    "format.named('dns1123Label').hasValue()",
    "!format.named('noSuchFormat').hasValue()",
    "format.named('dns1123Label').value().validate('ok') == optional.none()",
    "format.dns1123Label().validate('-a').value() == [\"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\"]",
  ],
  ip: [
    "isIP('192.168.0.1') && isIP('::1')",
    "!isIP('192.168.0.256') && !isIP('1.2.3.4%eth0')",
    "ip('192.168.0.1').family() == 4 && ip('::1').family() == 6",
    "ip('127.0.0.1').isLoopback() && ip('::1').isLoopback()",
    "ip('0.0.0.0').isUnspecified()",
    "ip('224.0.0.1').isLinkLocalMulticast()",
    "ip('fe80::1').isLinkLocalUnicast()",
    "ip('192.168.0.1').isGlobalUnicast()",
    "ip.isCanonical('2001:db8::abc')",
    "!ip.isCanonical('2001:DB8::ABC')",
    "string(ip('2001:db8:0:0:0:0:0:1')) == '2001:db8::1'",
    "type(ip('1.2.3.4')) == net.IP",
    "ip('10.0.0.1') == ip('10.0.0.1')",
    "type(quantity('1')) == kubernetes.Quantity && type(url('/a')) == kubernetes.URL",
  ],
  cidr: [
    "isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0/33')",
    "cidr('10.0.0.0/8').containsIP('10.1.2.3')",
    "cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))",
    "!cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))",
    "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')",
    "cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/33'))",
    "cidr('192.168.1.5/24').masked() == cidr('192.168.1.0/24')",
    "cidr('192.168.1.0/24').prefixLength() == 24",
    "cidr('::1/128').ip() == ip('::1')",
    "string(cidr('192.168.1.0/24')) == '192.168.1.0/24'",
    'type(cidr(\'::1/128\')) == net.IPPrefix',
  ],
  semver: [
    "isSemver('1.2.3') && !isSemver('v1.2.3')",
    "isSemver('v1.2', true)",
    "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3",
    "semver('1.2.3').isLessThan(semver('1.10.0'))",
    "semver('2.0.0').isGreaterThan(semver('1.99.99'))",
    "semver('1.0.0-alpha').compareTo(semver('1.0.0')) == -1",
    "semver('v1', true) == semver('1.0.0')",
  ],
  strings: [
    "'hello'.charAt(1) == 'e' && 'hello'.charAt(5) == ''",
    "'hello'.indexOf('l') == 2 && 'hello'.indexOf('l', 3) == 3",
    "'hello'.lastIndexOf('l') == 3 && 'hello'.lastIndexOf('l', 2) == 2",
    "'Rook takes 👑'.indexOf('👑') == 11",
    "'TacoCat'.lowerAscii() == 'tacocat' && 'TacoCat'.upperAscii() == 'TACOCAT'",
    "'ÀÉ'.lowerAscii() == 'ÀÉ'",
    "'aaa'.replace('a', 'b') == 'bbb' && 'aaa'.replace('a', 'b', 2) == 'bba'",
    "'a,b,c'.split(',') == ['a', 'b', 'c'] && 'a,b,c'.split(',', 2) == ['a', 'b,c']",
    "'hello'.substring(1) == 'ello' && 'hello'.substring(1, 3) == 'el'",
    "'  \\t x \\n'.trim() == 'x'",
    "['a', 'b'].join() == 'ab' && ['a', 'b'].join('-') == 'a-b'",
    "strings.quote('a\\nb\"') == '\"a\\\\nb\\\\\"\"'",
  ],
  'string.format': [
    "'%s and %d'.format(['a', 1]) == 'a and 1'",
    "'%d%%'.format([50]) == '50%'",
    "'%.2f'.format([3.14159]) == '3.14'",
    "'%f'.format([2.5]) == '2.500000'",
    // Kubernetes 1.32 formats %f and %e through golang.org/x/text (en-US)
    "'%.2f'.format([1234567.891]) == '1,234,567.89'",
    "'%e'.format([1234.5]) == '1.234500\u202f×\u202f10⁰³'",
    "'%.1e'.format([0.000123]) == '1.2\u202f×\u202f10⁻⁰⁴'",
    "'%f'.format(['Infinity']) == '∞'",
    "'%x %X %o %b'.format([255, 'hi', 8, 5]) == 'ff 6869 10 101'",
    "'%s'.format([[1, 'a', 2.5, duration('1s')]]) == '[1, \"a\", 2.500000, duration(\"1s\")]'",
    "'%s'.format([{'b': 1, 'a': 2}]) == '{\"a\":2, \"b\":1}'",
    "'%s'.format([1e6]) == '1e+06'",
    "'%s %s'.format([timestamp('2024-01-02T03:04:05Z'), null]) == '2024-01-02T03:04:05Z null'",
  ],
  optionals: [
    'optional.of(1).value() == 1',
    'optional.none().orValue(2) == 2',
    'optional.of(1).or(optional.of(2)) == optional.of(1)',
    'optional.none().or(optional.of(2)) == optional.of(2)',
    'optional.ofNonZeroValue(0) == optional.none()',
    "optional.ofNonZeroValue('x').hasValue()",
    '[1, 2][?5] == optional.none()',
    '[1, 2][?1] == optional.of(2)',
    "{'a': 1}[?'a'] == optional.of(1)",
    "{'a': 1}.?b == optional.none()",
    'optional.of(2).optMap(x, x * 2) == optional.of(4)',
    'optional.of(2).optFlatMap(x, optional.none()) == optional.none()',
    '[?optional.none(), 1, ?optional.of(2)] == [1, 2]',
    "{?'a': optional.none(), 'b': 2} == {'b': 2}",
  ],
  core: [
    // integers are int64, doubles float64
    '9223372036854775807 > 0 && -9223372036854775808 < 0',
    'type(1) == int && type(1u) == uint && type(1.0) == double',
    // cross-type numeric comparisons (equality between int and double is a type error when checked)
    '1 < 1.5 && 1u < 2 && 2.0 > 1 && dyn(1) == 1.0',
    "int('-42') == -42 && double('1e3') == 1000.0 && string(1.5) == '1.5'",
    "duration('1h30m') == duration('90m') && duration('1.5s').getMilliseconds() == 1500",
    "timestamp('2024-01-31T00:00:00Z') + duration('24h') == timestamp('2024-02-01T00:00:00Z')",
    "timestamp('2024-02-29T12:00:00+02:00').getHours() == 10",
    "timestamp('2024-02-29T12:00:00+02:00').getHours('+02:00') == 12",
    "timestamp('2024-02-29T12:00:00Z').getDayOfWeek('America/New_York') == 4",
    "string(timestamp('2024-02-29T12:00:00.5+02:00')) == '2024-02-29T12:00:00.5+02:00'",
    '[1, 2, 3].all(x, x > 0) && [1, 2, 3].exists_one(x, x == 2)',
    '[1, 2, 3].map(x, x * 2).filter(x, x > 2) == [4, 6]',
    "{'a': 1, 'b': 2}.all(k, k.size() == 1)",
    'cel.bind(x, 2, x * x) == 4',
    "b'abc'.size() == 3 && bytes('ÿ').size() == 2",
  ],
};

for (const [lib, exprs] of Object.entries(holds)) {
  test(`${lib}: expressions hold`, (t) => {
    for (const expr of exprs) {
      const out = evaluate(expr);
      t.is(out.value, true, `${expr} => ${out.compileError ?? out.error ?? String(out.value)}`);
    }
  });
}

test('lists over custom-resource data: durations, dates, empty lists', (t) => {
  const data: Data = {
    schema: obj({
      durations: list({ type: 'string', format: 'duration' }),
      dates: list({ type: 'string', format: 'date' }),
      ints: list({ type: 'integer' }),
      empty: list({ type: 'integer' }),
      names: list(S),
    }),
    self: { durations: ['1s', '1m', '1m', '1h'], dates: ['2000-01-01', '2010-01-01'], ints: [1, 2, 2, 3], empty: [], names: ['b', 'a'] },
  };
  for (const expr of [
    "self.durations.sum() == duration('1h2m1s')",
    "self.durations.lastIndexOf(duration('1m')) == 2",
    "self.dates.max() == timestamp('2010-01-01T00:00:00Z')",
    'self.dates.isSorted()',
    'self.ints.sum() == 8 && self.empty.sum() == 0',
    '([0] + self.empty).min() == 0',
    '!self.names.isSorted()',
  ]) {
    const out = evaluate(expr, data);
    t.is(out.value, true, `${expr} => ${out.compileError ?? out.error ?? String(out.value)}`);
  }
  t.is(evaluate('self.empty.min() == 1', data).error, 'min called on empty list');
  t.is(evaluate('self.empty.max() == 1', data).error, 'max called on empty list');
  t.is(evaluate('self.ints[10] == 0', data).error, 'index out of bounds: 10');
});

/** Runtime errors: expression and the error's text. */
const fails: [string, string][] = [
  ["url('relative')", 'URL parse error during conversion from string: parse "relative": invalid URI for request'],
  ["quantity('bad')", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ["quantity('1.5').asInteger()", 'cannot convert value to integer'],
  ["ip('bad')", 'IP Address "bad" parse error during conversion from string: ParseAddr("bad"): unable to parse IP'],
  ["ip('1.2.3.4%eth0')", 'IP Address "1.2.3.4%eth0" parse error during conversion from string: ParseAddr("1.2.3.4%eth0"): unexpected character (at "%eth0")'],
  ["ip('fe80::1%eth0')", 'IP address "fe80::1%eth0" with zone value is not allowed'],
  ["ip('::ffff:1.2.3.4')", 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'],
  ["cidr('bad')", 'network address "bad" parse error during conversion from string: netip.ParsePrefix("bad"): no \'/\''],
  ["semver('bad')", 'No Major.Minor.Patch elements found'],
  ["'x'.matches(dyn('x++'))", 'error parsing regexp: invalid nested repetition operator: `++`'],
  ["'x'.find(dyn('[a'))", 'error parsing regexp: missing closing ]: `[a`'],
  ["'%d'.format([dyn('a')])", 'error during formatting: decimal clause can only be used on integers, was given string'],
  ["'abc'.charAt(5)", 'index out of range: 5'],
  ["'abc'.substring(2, 1)", 'invalid substring range. start: 2, end: 1'],
  ['optional.none().value()', 'optional.none() dereference'],
  ['[1, 2][5]', 'index out of bounds: 5'],
  ["{'a': 1}['b']", 'no such key: b'],
  ['1 / 0', 'division by zero'],
  ['9223372036854775807 + 1', 'integer overflow'],
  ['[].min()', 'min called on empty list'],
];

test('runtime errors read as in kube-apiserver', (t) => {
  for (const [expr, message] of fails) t.is(evaluate(expr).error, message, expr);
});

/** Compile errors: expression and the full cel-go error text. */
const rejects: [string, string][] = [
  ["['a', 'b'].sum()", "ERROR: <input>:1:15: found no matching overload for 'sum' applied to 'list(string).()'\n | ['a', 'b'].sum()\n | ..............^"],
  ['[[1], [2]].min()', "ERROR: <input>:1:15: found no matching overload for 'min' applied to 'list(list(int)).()'\n | [[1], [2]].min()\n | ..............^"],
  ["'x'.matches('x++')", "ERROR: <input>:1:13: invalid matches argument\n | 'x'.matches('x++')\n | ............^"],
  ["duration('1d')", "ERROR: <input>:1:10: invalid duration argument\n | duration('1d')\n | .........^"],
  ["timestamp('2024-13-01T00:00:00Z')", "ERROR: <input>:1:11: invalid timestamp argument\n | timestamp('2024-13-01T00:00:00Z')\n | ..........^"],
  ['timestamp(-62135596801)', "ERROR: <input>:1:11: invalid timestamp argument\n | timestamp(-62135596801)\n | ..........^"],
  ["[1, 'a', false]", "ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a', false]\n | ....^"],
  ["{'k1': 'a', 'k2': 1}", "ERROR: <input>:1:19: expected type 'string' but found 'int'\n | {'k1': 'a', 'k2': 1}\n | ..................^"],
  ["'%d'.format(['a'])", "ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given string\n | '%d'.format(['a'])\n | .............^"],
  ["'%s %s'.format(['a'])", "ERROR: <input>:1:15: index 1 out of range\n | '%s %s'.format(['a'])\n | ..............^"],
  ["'%s'.format(['a', 'b'])", "ERROR: <input>:1:12: too many arguments supplied to string.format (expected 1, got 2)\n | '%s'.format(['a', 'b'])\n | ...........^"],
  ["'hello'.reverse()", "ERROR: <input>:1:16: undeclared reference to 'reverse' (in container '')\n | 'hello'.reverse()\n | ...............^"],
  ["authorizer.allowed()", "ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.allowed()\n | ^\nERROR: <input>:1:19: undeclared reference to 'allowed' (in container '')\n | authorizer.allowed()\n | ..................^"],
  ['a.`b`', "ERROR: <input>:1:3: unsupported syntax: '`'\n | a.`b`\n | ..^"],
];

test('compile errors read as in kube-apiserver', (t) => {
  for (const [expr, text] of rejects) t.is(evaluate(expr).compileError, text, expr);
});

test('format accepts mixed-type argument lists despite homogeneous literals', (t) => {
  const out = evaluate("'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')])");
  t.is(out.value, '1 abc 1.000000 60s 2000-01-01T00:00:00Z');
});
