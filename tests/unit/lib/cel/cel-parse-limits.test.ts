/**
 * cel-go's limits on what a parse may produce, which keep a long or garbled expression (a policy's, a webhook's match
 * condition, a CRD rule) from stalling the server: expressions over 100,000 code points are refused unread; only the
 * first 100 errors are shown, then a count of the others; a source line over 16 KiB is not quoted under its error.
 */
import test from 'ava';
import { formatIssues } from '../../../../lib/cel/env.js';
import { kubernetesEnv } from '../../../../lib/cel/libraries.js';
import { parse } from '../../../../lib/cel/parser.js';

test('an expression over 100,000 code points is refused with cel-go error, unread', (t) => {
  const long = parse('\\'.repeat(1024 * 1024));
  t.deepEqual(long.issues, [{ offset: -1, message: 'expression code point size exceeds limit: size: 1048576, limit 100000' }]);
  t.is(formatIssues(long.source, long.issues), 'ERROR: <input>:-1:0: expression code point size exceeds limit: size: 1048576, limit 100000');
  // code points, not UTF-16 units
  t.deepEqual(parse('😀'.repeat(100_001)).issues, [{ offset: -1, message: 'expression code point size exceeds limit: size: 100001, limit 100000' }]);
});

test('only the first 100 errors are shown, then how many more there were', (t) => {
  const result = kubernetesEnv().compile('\\'.repeat(150));
  const lines = result.errorText!.split('\n');
  t.is(lines.filter((l) => l.startsWith('ERROR: ')).length, 100);
  t.is(lines.at(-1), `${result.issues.length - 100} more errors were truncated`);
  t.true(result.issues.length >= 150);
});

test('a source line over 16 KiB is not quoted under its error', (t) => {
  const result = kubernetesEnv().compile(`1${' '.repeat(16_384)})`);
  t.is(result.errorText, "ERROR: <input>:1:16386: Syntax error: extraneous input ')' expecting <EOF>");
  const short = kubernetesEnv().compile('1 )');
  t.is(short.errorText, "ERROR: <input>:1:3: Syntax error: extraneous input ')' expecting <EOF>\n | 1 )\n | ..^");
});
