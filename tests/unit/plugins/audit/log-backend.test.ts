import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLogBackend, auditEventLine } from '../../../../plugins/audit/log-backend.js';
import type { AuditEvent } from '../../../../core/contracts/audit.js';
import { withCapturedLog } from '../../../helpers/captured-log.js';

const dirs: string[] = [];
test.after.always(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-audit-log-'));
  dirs.push(dir);
  return dir;
};

const event = (auditID: string, extra: Partial<AuditEvent> = {}): AuditEvent => ({
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Request',
  auditID,
  stage: 'ResponseComplete',
  requestURI: '/api/v1/namespaces/default/configmaps',
  verb: 'create',
  user: { username: 'alice' },
  requestReceivedTimestamp: '2026-11-27T08:00:00.000000Z',
  stageTimestamp: '2026-11-27T08:00:00.000001Z',
  ...extra,
});
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').slice(0, -1);

test('events are JSON lines in the file, all written by shutdown, appended to what the file held', async (t) => {
  const path = join(tempDir(), 'logs', 'audit.log');
  const first = new AuditLogBackend({ path });
  t.is(statSync(path).mode & 0o777, 0o600, 'created at start, private');
  for (let i = 0; i < 100; i++) first.processEvent(event(`a${i}`));
  await first.shutdown();
  const second = new AuditLogBackend({ path });
  second.processEvent(event('b'));
  await second.shutdown();
  const ids = lines(path).map((l) => JSON.parse(l).auditID);
  t.deepEqual(ids, [...Array.from({ length: 100 }, (_, i) => `a${i}`), 'b']);
});

test('whatever a client sent, an event is one line of JSON that reads back to what was sent', (t) => {
  const hostile = 'a\nb\r\nc\u2028d\u2029e\u0085f\u0000g"h\\i</script>&\ud800j\udfffk\u001b[31m';
  const e = event('x', { requestURI: `/api?q=${hostile}`, userAgent: hostile, requestObject: { data: { [hostile]: hostile } } });
  const line = auditEventLine(e);
  t.is(line.indexOf('\n'), line.length - 1);
  t.false(/[\r\u0085\u2028\u2029\u0000-\u001f]/.test(line.slice(0, -1)), 'no line break or control character in the line');
  t.deepEqual(JSON.parse(line), e);
});

test('rotation at maxsize: backups named as lumberjack names them, only maxbackup of them kept', async (t) => {
  const dir = tempDir();
  const path = join(dir, 'audit.log');
  const backend = new AuditLogBackend({ path, maxSizeMB: 1, maxBackups: 2 });
  const big = 'x'.repeat(300 * 1024);
  for (let i = 0; i < 12; i++) backend.processEvent(event(`e${i}`, { requestObject: { data: { big } } }));
  await backend.shutdown();
  const backups = readdirSync(dir).filter((f) => f !== 'audit.log').sort();
  t.is(backups.length, 2);
  for (const b of backups) t.regex(b, /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/);
  const files = [...backups, 'audit.log'].map((f) => join(dir, f));
  for (const f of files) t.true(statSync(f).size <= 1024 * 1024, f);
  const ids = files.flatMap((f) => lines(f).map((l) => JSON.parse(l).auditID));
  // three 300 KiB events fit in 1 MiB: 12 events make 4 files, the oldest removed
  t.deepEqual(ids, ['e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11']);
});

test('an event that cannot be written is logged and dropped; the others are written', async (t) => {
  const path = join(tempDir(), 'audit.log');
  const backend = new AuditLogBackend({ path, maxSizeMB: 1 });
  const errors = await withCapturedLog(async (logged) => {
    backend.processEvent(event('before'));
    backend.processEvent(event('huge', { requestObject: 'x'.repeat(2 * 1024 * 1024) }));
    backend.processEvent(event('after'));
    await backend.shutdown();
    return logged.map((l) => `${l.level}: ${l.msg}`);
  });
  t.deepEqual(lines(path).map((l) => JSON.parse(l).auditID), ['before', 'after']);
  t.is(errors.length, 1);
  t.regex(errors[0]!, /^error: Error in audit plugin 'log' affecting 1 audit events: write length \d+ exceeds maximum file size 1048576/);
});

test('past 4 MiB queued, backpressure holds the request until the events queued before it are in the file', async (t) => {
  const path = join(tempDir(), 'audit.log');
  const backend = new AuditLogBackend({ path });
  backend.processEvent(event('small'));
  t.is(backend.backpressure(), undefined, 'a short queue holds no one');
  const big = 'x'.repeat(512 * 1024);
  for (let i = 0; i < 10; i++) backend.processEvent(event(`big${i}`, { requestObject: { data: { big } } }));
  const wait = backend.backpressure();
  t.truthy(wait, 'over the bound the request waits');
  await wait;
  t.deepEqual(
    lines(path).map((l) => JSON.parse(l).auditID),
    ['small', ...Array.from({ length: 10 }, (_, i) => `big${i}`)],
  );
  t.is(backend.backpressure(), undefined, 'written, nobody waits');
  await backend.shutdown();
});
