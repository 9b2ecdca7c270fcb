import test from 'ava';
import {
  canonicalPathElement,
  comparePathElements,
  fieldElement,
  indexElement,
  keyElement,
  pathElementString,
  pathString,
  valueElement,
} from '../../../../schemas/structured-merge/path-element.js';
import { goJSON, goNumber, goQuote } from '../../../../lib/go/go-values.js';
import { goCompare } from '../../../../lib/go/strings.js';
import { compareValues } from '../../../../schemas/structured-merge/json-value.js';

test('path elements serialize as fieldsV1 keys', (t) => {
  t.is(fieldElement('app.kubernetes.io/name'), 'f:app.kubernetes.io/name');
  t.is(keyElement([['port', 80], ['protocol', 'TCP']]), 'k:{"port":80,"protocol":"TCP"}');
  t.is(keyElement([['name', 'a<b&c>']]), 'k:{"name":"a\\u003cb\\u0026c\\u003e"}');
  t.is(valueElement('finalizers.fluxcd.io'), 'v:"finalizers.fluxcd.io"');
  t.is(valueElement(5), 'v:5');
  t.is(valueElement(1.5), 'v:1.5');
  t.is(valueElement(true), 'v:true');
  t.is(indexElement(3), 'i:3');
});

test('keys are canonicalized: fields sorted, Go JSON; unknown types dropped; malformed keys rejected', (t) => {
  t.is(canonicalPathElement('k:{"protocol":"TCP","port":80}'), 'k:{"port":80,"protocol":"TCP"}');
  t.is(canonicalPathElement('k:{ "name" : "x" }'), 'k:{"name":"x"}');
  t.is(canonicalPathElement('v:"a"'), 'v:"a"');
  t.is(canonicalPathElement('i:+7'), 'i:7');
  t.is(canonicalPathElement('f:spec'), 'f:spec');
  t.is(canonicalPathElement('z:whatever'), undefined);
  t.is(canonicalPathElement('ab'), undefined);
  t.throws(() => canonicalPathElement('x'), { message: 'key must be 2 characters long' });
  t.throws(() => canonicalPathElement('k:[1]'));
  t.throws(() => canonicalPathElement('k:{'));
  t.throws(() => canonicalPathElement('i:x'));
});

test("SMD's order: field < key < value < index; keys and values by value order", (t) => {
  const sorted = [
    'i:10',
    'v:"b"',
    'k:{"port":443,"protocol":"TCP"}',
    'f:b',
    'v:2',
    'k:{"port":80,"protocol":"UDP"}',
    'f:a',
    'i:9',
    'k:{"port":80,"protocol":"TCP"}',
    'v:true',
  ].sort(comparePathElements);
  t.deepEqual(sorted, [
    'f:a',
    'f:b',
    'k:{"port":80,"protocol":"TCP"}',
    'k:{"port":80,"protocol":"UDP"}',
    'k:{"port":443,"protocol":"TCP"}',
    'v:2',
    'v:"b"',
    'v:true',
    'i:9',
    'i:10',
  ]);
  // A key with fewer fields sorts first; then field names, then values.
  t.true(comparePathElements('k:{"a":1}', 'k:{"a":1,"b":1}') < 0);
  t.true(comparePathElements('k:{"a":2}', 'k:{"b":1}') < 0);
});

test('value order: numbers < strings < booleans < lists < maps < null', (t) => {
  const values = [null, { a: 1 }, [1], true, 'x', 2, 1.5, false, [0, 1], {}, 'X'];
  t.deepEqual([...values].sort(compareValues), [1.5, 2, 'X', 'x', false, true, [0, 1], [1], {}, { a: 1 }, null]);
});

test('Go string order is UTF-8 byte order', (t) => {
  const astral = '\u{1F600}';
  const bmpHigh = '\uFF21';
  t.true(goCompare(bmpHigh, astral) < 0); // U+FF21 (EF BC A1) < U+1F600 (F0 9F 98 80)
  t.true(bmpHigh > astral); // …while JS compares UTF-16 code units the other way
  t.is(goCompare('a', 'a'), 0);
  t.true(goCompare('a', 'ab') < 0);
});

test('path strings as SMD prints them in conflicts and errors', (t) => {
  t.is(pathString(['f:spec', 'f:containers', 'k:{"name":"nginx"}', 'f:image']), '.spec.containers[name="nginx"].image');
  t.is(pathString(['f:metadata', 'f:labels', 'f:app']), '.metadata.labels.app');
  t.is(pathString(['f:spec', 'f:list', 'v:5']), '.spec.list[=5]');
  t.is(pathString(['f:spec', 'f:tags', 'v:"x"']), '.spec.tags[="x"]');
  t.is(pathString(['f:spec', 'f:ports', 'k:{"port":80,"protocol":"TCP"}']), '.spec.ports[port=80,protocol="TCP"]');
  t.is(pathString(['f:spec', 'f:args', 'i:0']), '.spec.args[0]');
  t.is(pathElementString('v:1.5e-7'), '[=1.5e-07]');
  t.is(pathString([]), '');
});

test('Go texts: %q, %v of numbers, encoding/json', (t) => {
  t.is(goQuote('a"b\\c\n\u0001\u00a0é'), '"a\\"b\\\\c\\n\\x01\\u00a0é"');
  t.is(goNumber(80), '80');
  t.is(goNumber(0.5), '0.5');
  t.is(goNumber(1e21), '1e+21');
  t.is(goNumber(0.00001), '1e-05');
  t.is(goJSON({ b: [1, 'x<'], a: null, c: { '\u2028': true } }), '{"a":null,"b":[1,"x\\u003c"],"c":{"\\u2028":true}}');
});
