import test from 'ava';
import { configureLogging, log } from '../../../../lib/log/logger.js';
import { formatTextLine } from '../../../../lib/log/text-line.js';
import { withCapturedLog } from '../../../helpers/captured-log.js';

test.serial('info up to the verbosity is written, errors and warnings always; JSON lines carry kube\'s keys', async (t) => {
  const lines = await withCapturedLog(async (logged) => {
    log.error('broke', { err: new Error('why'), resource: 'widgets' });
    log.warn('careful');
    log.info('plain');
    log.v(2).info('chatty', { n: 1 });
    log.v(3).info('too chatty');
    return logged;
  }, 2);
  t.deepEqual(lines.map((l) => [l.level, l.msg, l.v]), [['error', 'broke', undefined], ['warn', 'careful', undefined], ['info', 'plain', 0], ['info', 'chatty', 2]]);
  t.is(typeof lines[0]!.ts, 'number');
  t.like(lines[0], { resource: 'widgets', err: { type: 'Error', message: 'why' } });
  t.regex((lines[0]!.err as { stack: string }).stack, /^Error: why\n {4}at /);
  t.false('pid' in lines[0]! || 'hostname' in lines[0]!);
});

test.serial('text lines are klog\'s: severity, UTC time, quoted message, key-values, an error\'s stack after', (t) => {
  const ts = Date.UTC(2026, 10, 27, 14, 17, 16, 123) / 1000;
  t.is(formatTextLine(JSON.stringify({ level: 'info', ts, v: 3, msg: 'HTTP', verb: 'GET', resp: 200 })), 'I1127 14:17:16.123000] "HTTP" verb="GET" resp=200\n');
  t.is(
    formatTextLine(JSON.stringify({ level: 'error', ts, msg: 'internal error', err: { message: 'x is "bad"', stack: 'Error: x\n    at f' } })),
    'E1127 14:17:16.123000] "internal error" err="x is \\"bad\\""\nError: x\n    at f\n',
  );
  t.is(formatTextLine(JSON.stringify({ level: 'warn', ts, msg: 'a\nb' })), 'W1127 14:17:16.123000] "a\\nb"\n', 'a message cannot break the line');
});

test.serial('the text format writes through the destination', (t) => {
  const written: string[] = [];
  configureLogging({ format: 'text', destination: { write: (line: string) => written.push(line) } });
  try {
    log.warn('careful', { name: 'x' });
  } finally {
    configureLogging({});
  }
  t.is(written.length, 1);
  t.regex(written[0]!, /^W\d{4} \d\d:\d\d:\d\d\.\d{6}\] "careful" name="x"\n$/);
});
