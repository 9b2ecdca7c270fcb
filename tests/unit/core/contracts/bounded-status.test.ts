// kapi's bounds on a 422: at most 100 causes, texts cut to 4096 runes, a Status under 1 MiB whatever the causes.
import test from 'ava';
import { errors, fieldErrors } from '../../../../core/contracts/api-error.js';

const widget = { group: 'example.com', resource: 'widgets', kind: 'Widget', name: 'w1' };

test('up to 100 causes are listed as kube lists them', (t) => {
  const causes = Array.from({ length: 100 }, (_, i) => fieldErrors.required(`spec.items[${i}].name`));
  const status = errors.invalid(widget, causes).status;
  t.deepEqual(status.details?.causes, causes);
  t.true(status.message!.endsWith('spec.items[99].name: Required value]'));
});

test('past 100 causes, one last cause counts the others, in details and in the message', (t) => {
  const causes = Array.from({ length: 1000 }, (_, i) => fieldErrors.required(`spec.items[${i}].name`));
  const status = errors.invalid(widget, causes).status;
  t.is(status.details?.causes?.length, 101);
  t.deepEqual(status.details?.causes?.[100], { message: 'and 900 more errors' });
  t.true(status.message!.endsWith('spec.items[99].name: Required value, and 900 more errors]'));
  t.deepEqual(errors.invalid(widget, causes.slice(0, 101)).status.details?.causes?.[100], { message: 'and 1 more error' });
});

test('a long field or message is cut to 4096 runes, and the listed causes stay small enough for a Status under 1 MiB', (t) => {
  const long = fieldErrors.invalid('spec.text', '😀'.repeat(10_000), 'too long');
  const [cause] = errors.invalid(widget, [long]).status.details!.causes!;
  t.is([...cause!.message!].length, 4096 + 3);
  t.true(cause!.message!.endsWith('😀😀...'));
  // control characters take 6 bytes each in JSON: fewer than 100 such causes fit
  const heavy = Array.from({ length: 200 }, (_, i) => fieldErrors.forbidden(`spec.f${i}`, '\u0001'.repeat(10_000)));
  const status = errors.invalid(widget, heavy).status;
  t.true(Buffer.byteLength(JSON.stringify(status)) <= 1024 * 1024, `${Buffer.byteLength(JSON.stringify(status))} bytes`);
  const listed = status.details!.causes!;
  t.true(listed.length < 100);
  t.deepEqual(listed.at(-1), { message: `and ${200 - listed.length + 1} more errors` });
});
