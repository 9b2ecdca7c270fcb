import test from 'ava';
import { ApiError } from '../../../../core/contracts/api-error.js';
import { validateFieldSelector } from '../../../../core/selectors/field-selector.js';
import { parseFieldSelector, type FieldSelector } from '../../../../lib/k8s/fields/field-selector.js';
import { FieldSelectorError } from '../../../../lib/k8s/fields/field-selector-error.js';

/** The 400 text: a selector that does not parse (answered as a 400 with it), or validation's own 400. */
function badRequest(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof FieldSelectorError) return e.message;
    if (e instanceof ApiError && e.code === 400 && e.reason === 'BadRequest') return e.message;
    throw e;
  }
  throw new Error('no error');
}

test('operators, sorting and the == spelling', (t) => {
  t.deepEqual(parseFieldSelector('status.phase!=Active,metadata.name==w1,metadata.namespace=ns').requirements, [
    { field: 'metadata.name', operator: '=', value: 'w1' },
    { field: 'metadata.namespace', operator: '=', value: 'ns' },
    { field: 'status.phase', operator: '!=', value: 'Active' },
  ]);
});

test('empty terms are ignored; an empty selector is empty', (t) => {
  t.true(parseFieldSelector('').isEmpty());
  t.true(parseFieldSelector(',,').isEmpty());
  t.deepEqual(parseFieldSelector(',a=b,').requirements, [{ field: 'a', operator: '=', value: 'b' }]);
  t.false(parseFieldSelector('a=b').isEmpty());
});

test('backslash escapes in values', (t) => {
  t.deepEqual(parseFieldSelector('a=x\\,y,b=p\\=q,c=back\\\\slash').requirements, [
    { field: 'a', operator: '=', value: 'x,y' },
    { field: 'b', operator: '=', value: 'p=q' },
    { field: 'c', operator: '=', value: 'back\\slash' },
  ]);
  t.deepEqual(parseFieldSelector('a!=').requirements, [{ field: 'a', operator: '!=', value: '' }]);
});

const matchCases: [selector: string, fields: Record<string, string>, expected: boolean][] = [
  ['metadata.name=w1', { 'metadata.name': 'w1' }, true],
  ['metadata.name=w1', { 'metadata.name': 'w2' }, false],
  ['metadata.name!=w1', { 'metadata.name': 'w2' }, true],
  ['metadata.name!=w1', {}, true],
  ['spec.color=', {}, true],
  ['spec.color=red', {}, false],
  ['constructor=', {}, true],
  ['a=1,b!=2', { a: '1', b: '3' }, true],
  ['a=1,b!=2', { a: '1', b: '2' }, false],
  ['', {}, true],
];

for (const [selector, fields, expected] of matchCases) {
  test(`field selector ${JSON.stringify(selector)} on ${JSON.stringify(fields)} is ${expected}`, (t) => {
    t.is(parseFieldSelector(selector).matches(fields), expected);
  });
}

test('exactMatch is the first equality term for the field', (t) => {
  t.is(parseFieldSelector('metadata.name=w1').exactMatch('metadata.name'), 'w1');
  t.is(parseFieldSelector('metadata.name==w1,metadata.namespace=ns').exactMatch('metadata.namespace'), 'ns');
  t.is(parseFieldSelector('metadata.name=b,metadata.name=a').exactMatch('metadata.name'), 'a');
  t.is(parseFieldSelector('metadata.name!=w1').exactMatch('metadata.name'), undefined);
  t.is(parseFieldSelector('metadata.namespace=ns').exactMatch('metadata.name'), undefined);
  t.is(parseFieldSelector('').exactMatch('metadata.name'), undefined);
});

const errorCases: [selector: string, message: string][] = [
  ['a', "invalid selector: 'a'; can't understand 'a'"],
  ['z,y=1,a', "invalid selector: 'z,y=1,a'; can't understand 'a'"],
  ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
  ['a!==b', 'invalid field selector: unescaped character in value: 61'],
  ['a===b', 'invalid field selector: unescaped character in value: 61'],
  ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
  ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
];

for (const [selector, message] of errorCases) {
  test(`field selector ${JSON.stringify(selector)} is refused with kube's text`, (t) => {
    t.is(badRequest(() => parseFieldSelector(selector)), message);
  });
}

test('validateFieldSelector names the first unsupported field in sorted order', (t) => {
  const supported = ['metadata.name', 'metadata.namespace'];
  const check = (sel: FieldSelector) => () => validateFieldSelector(sel, supported, 'Widget');
  t.notThrows(check(parseFieldSelector('metadata.name=w1,metadata.namespace=ns')));
  t.notThrows(check(parseFieldSelector('')));
  t.is(badRequest(check(parseFieldSelector('spec.foo=1'))), 'field label not supported: spec.foo');
  t.is(badRequest(check(parseFieldSelector('spec.z=1,metadata.name=a,spec.b!=2'))), 'field label not supported: spec.b');
  t.is(
    badRequest(() => validateFieldSelector(parseFieldSelector('metadata.namespace=x'), ['metadata.name', 'status.phase'], 'Namespace')),
    'field label not supported: metadata.namespace',
  );
});
