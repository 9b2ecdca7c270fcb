import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { getLoadGenerator } from '../../../bench/wrk.js';

const savedPath = process.env['PATH'];
const dirs: string[] = [];
test.afterEach.always(() => {
  process.env['PATH'] = savedPath;
});
test.after.always(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A PATH directory holding only the named (dummy) executables. */
function pathWith(...names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-wrk-path-'));
  dirs.push(dir);
  for (const n of names) {
    writeFileSync(join(dir, n), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, n), 0o755);
  }
  return dir;
}

test.serial('without wrk on PATH the GETs fall back to autocannon, with a note saying the verdict needs wrk', async (t) => {
  process.env['PATH'] = pathWith();
  const notes: string[] = [];
  const generator = await getLoadGenerator((m) => notes.push(m));
  t.is(generator.name, 'autocannon');
  t.is(generator.cpuPinning, undefined);
  t.is(notes.length, 1);
  t.regex(notes[0]!, /^NOTE: wrk is not on PATH \(Debian: apt-get install wrk\).*the GET \/ baseline verdict needs wrk$/);
});

test.serial('with wrk but no taskset on PATH, wrk runs unpinned', async (t) => {
  process.env['PATH'] = pathWith('wrk');
  const notes: string[] = [];
  const generator = await getLoadGenerator((m) => notes.push(m));
  t.is(generator.name, 'wrk');
  t.is(generator.cpuPinning, undefined);
  t.deepEqual(notes, ['GET load: wrk, unpinned (taskset missing or fewer than 2 CPUs)']);
});
