// goJSON: encoding/json.Marshal of a decoded JSON value, the one implementation kube's texts are built with
// (Table cells, SSA paths and last-applied, validation messages).
import test from 'ava';
import { goJSON, goJSONString, goNumber } from '../../../../lib/go/go-values.js';

test('object keys sort in Go order (UTF-8 bytes: a character above U+FFFF after U+FFFD), undefined values are left out', (t) => {
  t.is(goJSON({ b: 1, a: [true, null], '😀': 'x', '\ufffd': 'y', gone: undefined }), '{"a":[true,null],"b":1,"\ufffd":"y","😀":"x"}');
});

test('strings escape HTML characters, control characters and line separators as encoding/json does; a lone surrogate is U+FFFD', (t) => {
  t.is(goJSONString('<a & b>'), '"\\u003ca \\u0026 b\\u003e"');
  t.is(goJSONString('tab\there\nnew\b\f\u0001'), '"tab\\there\\nnew\\b\\f\\u0001"');
  t.is(goJSONString('\u2028\u2029'), '"\\u2028\\u2029"');
  t.is(goJSONString('x\ud800y'), '"x\\ufffdy"');
  t.is(goJSONString('😀'), '"😀"');
});

test('numbers: int64 in decimal, floats as encoding/json writes them; %v of a float uses the exponent from 1e6 on', (t) => {
  t.is(goJSON([1, 1.5, 1e-7, 1e21, 2 ** 53]), '[1,1.5,1e-07,1e+21,9007199254740992]');
  t.is(goNumber(1500000.5), '1.5000005e+06');
  t.is(goNumber(80), '80');
});
