/**
 * `npm run fuzz`: the seeded fuzzer of tests/fuzz/ against a kapi server in its own process (as `kapi serve` builds it),
 * 10,000 body cases per codec (FUZZ_CASES) plus as many query strings and URL paths (FUZZ_OTHER_CASES), seed FUZZ_SEED (printed;
 * default: from the clock). Prints the cases, the answers by status code, the slowest answer, every 5xx, stall or
 * stored change with the request that caused it (grouped by cause), and the server's RSS before and after. Not in CI.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureAdminToken, ensurePki } from '../plugins/auth/index.js';
import { fuzzClient } from '../tests/fuzz/client.js';
import { codecNames } from '../tests/fuzz/encode.js';
import { runFuzz, setUpFuzzTargets, type FuzzFinding } from '../tests/fuzz/runner.js';
import type { KapiServerSettings } from './kapi-server.js';
import { withServer } from './server-process.js';

const seed = Number(process.env['FUZZ_SEED'] ?? Date.now() % 2 ** 31);
const perGroup = Number(process.env['FUZZ_CASES'] ?? 10_000);
/** Query strings and URL paths (default: as many as bodies per codec). */
const perOtherGroup = Number(process.env['FUZZ_OTHER_CASES'] ?? perGroup);
const concurrency = Number(process.env['FUZZ_CONCURRENCY'] ?? 4);

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** Findings grouped by their first line with digits blurred (one cause, many requests). */
function byCause(findings: FuzzFinding[]): Map<string, FuzzFinding[]> {
  const causes = new Map<string, FuzzFinding[]>();
  for (const f of findings) {
    const cause = f.problem.split('\n')[0]!.replace(/\d+/g, 'N').slice(0, 200);
    causes.set(cause, [...(causes.get(cause) ?? []), f]);
  }
  return causes;
}

const root = await mkdtemp(join(tmpdir(), 'kapi-fuzz-'));
try {
  const pkiDir = join(root, 'pki');
  const pki = await ensurePki(pkiDir, { hosts: ['127.0.0.1'] });
  const dataDir = join(root, 'data');
  await mkdir(dataDir);
  const token = await ensureAdminToken(dataDir);
  const settings: KapiServerSettings = { dataDir, pkiDir, token };
  const failed = await withServer('./kapi-server.js', settings, async (url, server) => {
    const client = fuzzClient(url, pki.caCertPem, token, concurrency);
    await setUpFuzzTargets(client);
    const rssBefore = await rssMiB(server.pid);
    const cases = { ...Object.fromEntries(codecNames.map((g) => [g, perGroup])), query: perOtherGroup, path: perOtherGroup };
    console.log(`fuzz: seed ${seed}, ${perGroup} cases per codec, ${perOtherGroup} query strings, ${perOtherGroup} paths, concurrency ${concurrency}`);
    const started = Date.now();
    const figures = await runFuzz(client, { seed, cases, concurrency, readyEvery: 500, ...(process.env['FUZZ_TRACE'] ? { trace: (name: string) => console.error(`start ${name}`) } : {}) }, (line) => console.log(`  ${line}`));
    const rssAfter = await rssMiB(server.pid);
    client.close();
    console.log(`\nseed ${seed}: ${Object.values(figures.cases).reduce((a, b) => a + b, 0)} cases in ${Math.round((Date.now() - started) / 1000)} s`);
    for (const [group, n] of Object.entries(figures.cases)) {
      const statuses = Object.entries(figures.statuses[group as keyof typeof figures.statuses] ?? {}).map(([code, count]) => `${code}: ${count}`).join(', ');
      console.log(`  ${group.padEnd(8)} ${String(n).padStart(6)} cases — ${statuses}`);
    }
    console.log(`slowest answer: ${figures.slowest.ms} ms — ${figures.slowest.request.slice(0, 400)}`);
    console.log(`504 Timeout "Too large resource version" (kube's answer to a read ahead of the store, after 3 s; not findings): ${figures.tooLargeResourceVersion}`);
    console.log(`server RSS: ${rssBefore} MiB before, ${rssAfter} MiB after`);
    const fivexx = figures.findings.filter((f) => /^5\d\d/.test(f.problem)).length;
    console.log(`answers ≥ 500: ${fivexx}; answers over 2 s: ${figures.findings.filter((f) => f.problem.startsWith('answered')).length}; findings: ${figures.findings.length}`);
    for (const [cause, list] of byCause(figures.findings)) {
      console.log(`\n${list.length}× ${cause}`);
      for (const f of list.slice(0, 3)) console.log(`  - ${f.problem.slice(0, 300)}\n    ${f.request.slice(0, 800)}`);
    }
    return figures.findings.length > 0;
  });
  process.exitCode = failed ? 1 : 0;
} finally {
  await rm(root, { recursive: true, force: true });
}
