// The Warning headers of one request, as kube's warning recorder (k8s.io/apiserver WithWarningRecorder) writes them.
import test from 'ava';
import type { Context } from 'koa';
import { addWarnings } from '../../../../core/handlers/warnings.js';
import { warningHeaderValue } from '../../../../core/handlers/warning-header.js';

/** A request context that keeps only its Warning header, as koa's ctx.set / ctx.remove would. */
function fakeContext(): { ctx: Context; sent: () => string[] } {
  let values: string[] = [];
  const ctx = {
    set: (name: string, v: string[]) => {
      if (name === 'Warning') values = [...v];
    },
    remove: (name: string) => {
      if (name === 'Warning') values = [];
    },
  } as unknown as Context;
  return { ctx, sent: () => values.map((v) => Buffer.from(v, 'latin1').toString('utf8')) };
}

test('empty texts are not sent, repeated ones once, the others in order', (t) => {
  const { ctx, sent } = fakeContext();
  addWarnings(ctx, ['', 'mytext1', 'mytext2']);
  addWarnings(ctx, ['mytext1', 'mytext3']);
  t.deepEqual(sent(), ['299 - "mytext1"', '299 - "mytext2"', '299 - "mytext3"']);
});

test('quotes and backslashes are escaped, other characters sent as their UTF-8 bytes, control characters refused', (t) => {
  t.is(warningHeaderValue('say "hi" \\ there'), '299 - "say \\"hi\\" \\\\ there"');
  t.is(Buffer.from(warningHeaderValue('colour€ ✓ 😀')!, 'latin1').toString('utf8'), '299 - "colour€ ✓ 😀"');
  for (const text of ['my\ntext', 'tab\there', 'del\u007f', 'c1\u0085']) t.is(warningHeaderValue(text), undefined, JSON.stringify(text));
  const { ctx, sent } = fakeContext();
  addWarnings(ctx, ['my\ntext', 'fine']);
  t.deepEqual(sent(), ['299 - "fine"']);
});

test('past 4 Ki runes every warning is cut to 256 runes, those sent before too, and what comes after the limit is dropped', (t) => {
  const { ctx, sent } = fakeContext();
  const long = '€'.repeat(300);
  const items = Array.from({ length: 16 }, (_, i) => String.fromCharCode(97 + i).repeat(250));
  addWarnings(ctx, [long, ...items.slice(0, 15)]); // 300 + 15 × 250 = 4050 runes: all sent whole
  t.is(sent()[0], `299 - "${long}"`);
  addWarnings(ctx, [items[15]!, items[15]!, 'late']); // passes 4096: truncation; 256 + 16 × 250 runes, then full
  t.deepEqual(sent(), [`299 - "${'€'.repeat(256)}"`, ...items.map((i) => `299 - "${i}"`)]);
});

test('the Warning header lines stay within 8 KiB, however many short warnings there are', (t) => {
  const { ctx, sent } = fakeContext();
  addWarnings(ctx, Array.from({ length: 3000 }, (_, i) => String.fromCodePoint(0x4e00 + i)));
  const bytes = sent().reduce((n, v) => n + Buffer.byteLength(`Warning: ${v}\r\n`), 0);
  t.true(bytes <= 8 * 1024, `${bytes} bytes`);
  t.true(sent().length > 300, `${sent().length} warnings`);
});
