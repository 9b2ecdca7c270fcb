// DESIGN.md's import table and "no cycle anywhere", checked with dependency-cruiser (.dependency-cruiser.cjs) over the
// sources: no import may break them.
import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoPath, repoRoot } from '../helpers/kapi-process.js';

interface Violation {
  rule: string;
  from: string;
  to: string;
}

const sources = ['index.ts', 'cli', 'lib', 'core', 'builtin', 'plugins', 'schemas', 'admission', 'generators', 'examples'];

async function currentViolations(): Promise<Violation[]> {
  const bin = repoPath('node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const args = [bin, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...sources];
  // depcruise exits non-zero when it finds violations; the JSON report is written either way.
  const out = await promisify(execFile)(process.execPath, args, { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  const report = JSON.parse(out.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return report.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

const key = (v: Violation) => `${v.rule}: ${v.from} → ${v.to}`;

test('imports follow DESIGN.md: no violation, no cycle', async (t) => {
  t.deepEqual((await currentViolations()).map(key), [], 'imports against the table in DESIGN.md (or cycles)');
});
