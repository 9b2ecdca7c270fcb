/** CRD schema admission: a `pattern` must compile as a Go regexp; the errors are Go's regexp/syntax texts. */
import test from 'ava';
import { goRegexpError } from '../../../../schemas/crd-rules/go-regexp-syntax.js';

test('patterns Go compiles', (t) => {
  for (const p of [
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
    '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE])?$',
    '(?i)^abc$',
    '(?P<name>x)(?<other>y)',
    '[[:alpha:]_][\\w.-]*',
    '\\p{Greek}\\pL\\PN',
    'a{2,3}b{,3}',
    '\\Qa*b\\E+',
    '[]a][^]b]',
    'a*?',
    '^*$',
    '()*',
    '\\_\\.\\x41\\x{263a}\\012',
  ]) {
    t.is(goRegexpError(p), undefined, p);
  }
});

test('Go syntax errors, with the part of the pattern Go quotes', (t) => {
  const cases: [string, string][] = [
    ['(abc', 'missing closing ): `(abc`'],
    ['abc)', 'unexpected ): `abc)`'],
    ['[a-z', 'missing closing ]: `[a-z`'],
    ['*a', 'missing argument to repetition operator: `*`'],
    ['a|+', 'missing argument to repetition operator: `+`'],
    ['a**', 'invalid nested repetition operator: `**`'],
    ['a{2}{3}', 'invalid nested repetition operator: `{2}{3}`'],
    ['a{1001}', 'invalid repeat count: `{1001}`'],
    ['a{3,2}', 'invalid repeat count: `{3,2}`'],
    ['ab\\', 'trailing backslash at end of expression: ``'],
    ['\\1', 'invalid escape sequence: `\\1`'],
    ['\\Z', 'invalid escape sequence: `\\Z`'],
    ['[z-a]', 'invalid character class range: `z-a`'],
    ['[[:word2:]]', 'invalid character class range: `[:word2:]`'],
    ['\\p{Klingon}', 'invalid character class range: `\\p{Klingon}`'],
    ['(?=a)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['(?!a)', 'invalid or unsupported Perl syntax: `(?!`'],
    ['(?P<n-1>a)', 'invalid named capture: `(?P<n-1>`'],
    ['(?<=a)b', 'invalid named capture: `(?<=a)b`'],
  ];
  for (const [pattern, message] of cases) t.is(goRegexpError(pattern), `error parsing regexp: ${message}`, pattern);
});
