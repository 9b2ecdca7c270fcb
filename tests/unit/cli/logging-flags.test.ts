import test from 'ava';
import { parseServeFlags } from '../../../cli/serve-flags.js';
import { UsageError } from '../../../cli/usage-error.js';

const logging = (...args: string[]) => parseServeFlags(args) !== 'help' && (parseServeFlags(args) as { logging?: unknown }).logging;

test('--logging-format and -v as kube spells them', (t) => {
  t.is(logging(), undefined);
  t.deepEqual(logging('--logging-format', 'json'), { format: 'json', verbosity: 0 });
  t.deepEqual(logging('--log-format=json', '-v', '3'), { format: 'json', verbosity: 3 });
  t.deepEqual(logging('-v=4'), { format: 'text', verbosity: 4 });
  t.deepEqual(logging('-v5'), { format: 'text', verbosity: 5 });
  t.deepEqual(logging('--v=2'), { format: 'text', verbosity: 2 });
});

test('bad values are refused with kube\'s messages', (t) => {
  t.throws(() => parseServeFlags(['--logging-format', 'xml']), { instanceOf: UsageError, message: 'format: Unsupported value: "xml": supported values: "json", "text"' });
  t.throws(() => parseServeFlags(['-v', 'loud']), {
    instanceOf: UsageError,
    message: 'invalid argument "loud" for "-v, --v" flag: strconv.ParseInt: parsing "loud": invalid syntax',
  });
});
