import test from 'ava';
import { LabelSelectorError } from '../../../../../lib/k8s/labels/label-selector-error.js';
import { labelSelectorFromObject, parseLabelSelector, type LabelSelectorObject } from '../../../../../lib/k8s/labels/label-selector.js';

const nameRule =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const valueRule =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
  "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const subdomainRule =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an " +
  "alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const operatorList = 'in, notin, =, ==, !=, gt, lt';

function parseError(text: string): string {
  try {
    parseLabelSelector(text);
  } catch (e) {
    if (e instanceof LabelSelectorError) return e.message;
    throw e;
  }
  throw new Error(`${JSON.stringify(text)} parsed`);
}

function fromObjectError(sel: LabelSelectorObject): string {
  try {
    labelSelectorFromObject(sel);
  } catch (e) {
    if (e instanceof LabelSelectorError) return e.message;
    throw e;
  }
  throw new Error('converted');
}

const matchCases: [selector: string, labels: Record<string, string> | undefined, expected: boolean][] = [
  ['', undefined, true],
  ['a=b', { a: 'b' }, true],
  ['a=b', { a: 'c' }, false],
  ['a=b', {}, false],
  ['a==b', { a: 'b' }, true],
  ['a!=b', { a: 'c' }, true],
  ['a!=b', { a: 'b' }, false],
  ['a!=b', {}, true],
  ['a in (x, y)', { a: 'y' }, true],
  ['a in (x, y)', { a: 'z' }, false],
  ['a in (x, y)', {}, false],
  ['a notin (x)', { a: 'y' }, true],
  ['a notin (x)', { a: 'x' }, false],
  ['a notin (x)', {}, true],
  ['a', { a: '' }, true],
  ['a', { b: '' }, false],
  ['!a', { b: '' }, true],
  ['!a', { a: 'x' }, false],
  ['a>1', { a: '2' }, true],
  ['a>1', { a: '1' }, false],
  ['a>1', { a: 'x' }, false],
  ['a>1', {}, false],
  ['a<10', { a: '-3' }, true],
  ['a<10', { a: '+9' }, true],
  ['a>9223372036854775806', { a: '9223372036854775807' }, true],
  ['a<5', { a: '9223372036854775808' }, false],
  ['a=', { a: '' }, true],
  ['a=', {}, false],
  ['a in ()', { a: '' }, true],
  ['a in (,x)', { a: '' }, true],
  ['a=b,c', { a: 'b', c: '1' }, true],
  ['a=b,c', { a: 'b' }, false],
  ['  a  in  ( x ,\ty )\r\n,  !b ', { a: 'x' }, true],
  ['in in (in, notin)', { in: 'notin' }, true],
  ['constructor', {}, false],
  ['!constructor', undefined, true],
];

for (const [selector, labels, expected] of matchCases) {
  test(`label selector ${JSON.stringify(selector)} on ${JSON.stringify(labels)} is ${expected}`, (t) => {
    t.is(parseLabelSelector(selector).matches(labels), expected);
  });
}

test('requirements are sorted by key, set values sorted and deduplicated', (t) => {
  t.deepEqual(parseLabelSelector('z=1, a notin (q,b,q), !m, k').requirements, [
    { key: 'a', operator: 'notin', values: ['b', 'q'] },
    { key: 'k', operator: 'exists', values: [] },
    { key: 'm', operator: '!', values: [] },
    { key: 'z', operator: '=', values: ['1'] },
  ]);
  t.deepEqual(parseLabelSelector('a in (x,,y), b in (,), c==, d>3').requirements, [
    { key: 'a', operator: 'in', values: ['', 'x', 'y'] },
    { key: 'b', operator: 'in', values: [''] },
    { key: 'c', operator: '==', values: [''] },
    { key: 'd', operator: 'gt', values: ['3'] },
  ]);
});

test('isEmpty', (t) => {
  t.true(parseLabelSelector('').isEmpty());
  t.true(parseLabelSelector(' \t').isEmpty());
  t.false(parseLabelSelector('a').isEmpty());
});

test('example.com/prefixed keys are accepted', (t) => {
  t.true(parseLabelSelector('app.kubernetes.io/name=web').matches({ 'app.kubernetes.io/name': 'web' }));
});

const errorCases: [selector: string, message: string][] = [
  ['a b', `unable to parse requirement: found 'b', expected: ${operatorList}`],
  ['x (', `unable to parse requirement: found '(', expected: ${operatorList}`],
  ['e!!!!!ss', `unable to parse requirement: found '!', expected: ${operatorList}`],
  ['env IN (a)', `unable to parse requirement: found 'IN', expected: ${operatorList}`],
  ['type=app,versionv1.0.1)', `unable to parse requirement: found ')', expected: ${operatorList}`],
  ['foo=bar=42', "found '=', expected: ',' or 'end of string'"],
  ['a=b c', "found 'c', expected: ',' or 'end of string'"],
  ['!a=b', "found '=', expected: ',' or 'end of string'"],
  ['a,', "found '', expected: identifier after ','"],
  ['a,,b', "found ',', expected: identifier after ','"],
  [',a', "found ',', expected: !, identifier, or 'end of string'"],
  ['(a)', "found '(', expected: !, identifier, or 'end of string'"],
  ['!', "unable to parse requirement: found '', expected: identifier"],
  ['!=a', "found '!=', expected: !, identifier, or 'end of string'"],
  ['! =a', "unable to parse requirement: found '=', expected: identifier"],
  ['a in b', "unable to parse requirement: found 'b' expected: '('"],
  ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
  ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
  ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
  ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
  ['a=(b)', "unable to parse requirement: found '(', expected: identifier"],
  ['a===b', "unable to parse requirement: found '=', expected: identifier"],
  ['app: nginx', `unable to parse requirement: <nil>: Invalid value: "app:": name part ${nameRule}`],
  ['a/b/c', `unable to parse requirement: <nil>: Invalid value: "a/b/c": a valid label key ${nameRule} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`],
  ['/a', 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty'],
  ['a/', `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; name part ${nameRule}`],
  ['Example.com/a', `unable to parse requirement: <nil>: Invalid value: "Example.com/a": prefix part ${subdomainRule}`],
  [`${'k'.repeat(64)}`, `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 bytes`],
  ['a\u0001b', `unable to parse requirement: <nil>: Invalid value: "a\\x01b": name part ${nameRule}`],
  ['ключ', `unable to parse requirement: <nil>: Invalid value: "ключ": name part ${nameRule}`],
  ['a=-b', `unable to parse requirement: values[0][a]: Invalid value: "-b": ${valueRule}`],
  ['a in (z, -b)', `unable to parse requirement: values[0][a]: Invalid value: "-b": ${valueRule}`],
  [`a=${'v'.repeat(64)}`, `unable to parse requirement: values[0][a]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 bytes`],
  ['a>b', `unable to parse requirement: values[0]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer`],
  ['a<', `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`],
  ['a>-1', `unable to parse requirement: values[0][a]: Invalid value: "-1": ${valueRule}`],
  [
    'a>x%',
    `unable to parse requirement: [values[0]: Invalid value: "x%": for 'Gt', 'Lt' operators, the value must be an integer, ` +
      `values[0][a]: Invalid value: "x%": ${valueRule}]`,
  ],
];

for (const [selector, message] of errorCases) {
  test(`label selector ${JSON.stringify(selector)} is refused with kube's text`, (t) => {
    t.is(parseError(selector), message);
  });
}

test('a NUL ends the selector where a token would start, and is skipped right after a token', (t) => {
  t.deepEqual(parseLabelSelector('a \0b').requirements, [{ key: 'a', operator: 'exists', values: [] }]);
  t.deepEqual(parseLabelSelector('a=\0b').requirements, [{ key: 'a', operator: '=', values: ['b'] }]);
});

test('labelSelectorFromObject: null selects nothing, empty selects everything', (t) => {
  const nothing = labelSelectorFromObject(null);
  t.false(nothing.matches({}));
  t.false(nothing.isEmpty());
  const everything = labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] });
  t.true(everything.matches(undefined));
  t.true(everything.isEmpty());
});

test('labelSelectorFromObject: matchLabels and all four expression operators', (t) => {
  const sel = labelSelectorFromObject({
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'tier', operator: 'In', values: ['a', 'b'] },
      { key: 'env', operator: 'NotIn', values: ['prod'] },
      { key: 'owner', operator: 'Exists' },
      { key: 'legacy', operator: 'DoesNotExist', values: [] },
    ],
  });
  t.deepEqual(
    sel.requirements.map((r) => r.key),
    ['app', 'env', 'legacy', 'owner', 'tier'],
  );
  t.true(sel.matches({ app: 'web', tier: 'b', owner: 'x' }));
  t.false(sel.matches({ app: 'web', tier: 'b', owner: 'x', env: 'prod' }));
  t.false(sel.matches({ app: 'web', tier: 'b', owner: 'x', legacy: '1' }));
  t.false(sel.matches({ app: 'web', tier: 'c', owner: 'x' }));
  t.false(sel.matches({ app: 'web', tier: 'a' }));
});

test('labelSelectorFromObject errors carry kube text', (t) => {
  t.is(fromObjectError({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }), '"Gt" is not a valid pod selector operator');
  t.is(
    fromObjectError({ matchExpressions: [{ key: 'a', operator: 'In' }] }),
    "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
  );
  t.is(
    fromObjectError({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }),
    'values: Invalid value: ["x"]: values set must be empty for exists and does not exist',
  );
  t.is(
    fromObjectError({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['<x>'] }] }),
    '[values: Invalid value: ["\\u003cx\\u003e"]: values set must be empty for exists and does not exist, ' +
      `values[0][a]: Invalid value: "<x>": ${valueRule}]`,
  );
  t.is(fromObjectError({ matchLabels: { 'a b': 'c' } }), `key: Invalid value: "a b": name part ${nameRule}`);
  t.is(fromObjectError({ matchLabels: { a: 'c d' } }), `values[0][a]: Invalid value: "c d": ${valueRule}`);
  t.is(
    fromObjectError({ matchLabels: { 'a b': 'ok' }, matchExpressions: [{ key: 'a', operator: 'Bad' }] }),
    `key: Invalid value: "a b": name part ${nameRule}`,
  );
});
