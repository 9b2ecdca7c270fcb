import test from 'ava';
import { goJsonParseError, goJsonSyntaxError } from '../../../../lib/go/json-errors.js';

test('valid JSON has no syntax error, however deep up to Go\'s 10,000 levels', (t) => {
  for (const text of ['{}', ' [ ] ', '{"a":[1,{"b":null}],"c":"x\\u00e9"}', '-0.5e+3', 'true', '[[],{},[{}]]', '['.repeat(10_000) + ']'.repeat(10_000)]) {
    t.is(goJsonSyntaxError(text), undefined, text.slice(0, 40));
  }
});

test("each syntax error is encoding/json's text", (t) => {
  const cases: [string, string][] = [
    ['', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['-', 'unexpected end of JSON input'],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ['[1 2]', "invalid character '2' after array element"],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['{"a":"\\q"}', "invalid character 'q' in string escape code"],
    ['[1.]', "invalid character ']' after decimal point in numeric literal"],
  ];
  for (const [text, error] of cases) t.is(goJsonParseError(text), error, text);
});

test('nesting past 10,000 levels is Go\'s "exceeded max depth", found without recursion even a million levels deep', (t) => {
  t.is(goJsonParseError('['.repeat(10_001)), "invalid character '[' exceeded max depth");
  t.is(goJsonParseError('{"a":'.repeat(10_000) + '{'), "invalid character '{' exceeded max depth");
  t.is(goJsonParseError('['.repeat(1_000_000)), "invalid character '[' exceeded max depth");
  t.is(goJsonParseError('['.repeat(10_000)), 'unexpected end of JSON input');
});
