import test from 'ava';
import { benchConfig } from '../../../bench/config.js';
import type { CrdsResults, DocumentTimes } from '../../../bench/crds.js';
import type { Environment } from '../../../bench/environment.js';
import { buildResults, formatResults } from '../../../bench/report.js';

const environment: Environment = { node: 'v20', platform: 'linux/x64', cpus: 2, cpuModel: 'test', memoryGiB: 8, dataDirFs: 'ext4', loadAverage1m: 0, busyBeforeRun: 0 };

const doc = (bytes: number): DocumentTimes => ({ firstMs: 120, cachedMs: 4, bytes, notModified: true });

const crds: CrdsResults = {
  crds: 2000,
  kindsPerGroup: 10,
  propertiesPerCrd: 50,
  allEstablishedMs: 21_000,
  establishMaxEventLoopDelayMs: 42,
  memory: { rssBeforeMiB: 150, rssAfterMiB: 550, rssPerCrdMiB: 0.2, heapBeforeMiB: 60, heapAfterMiB: 300, heapPerCrdMiB: 0.12 },
  apiResources: { coldMs: 600, warmMs: 300, lines: 2100 },
  openapi: { v2: doc(30 * 2 ** 20), v3Root: doc(2 ** 20), v3GroupVersion: doc(2 ** 19), oneMoreCrdInV2Ms: 900, rebuildMaxEventLoopDelayMs: 30 },
  discovery: { etagStable: true, groups: 220 },
};

test('the crds group is kept in the results (so in latest-crds.json) and its detail lines are printed before the verdicts', (t) => {
  const results = buildResults(benchConfig({ BENCH_ONLY: 'crds' }), environment, { crds });
  t.deepEqual(results.crds, crds);
  t.deepEqual(JSON.parse(JSON.stringify(results)).crds, crds);
  const text = formatResults(results);
  t.regex(text, /crds — 2000 CRDs \(50 properties, 10 kinds per group\) applied together/);
  t.regex(text, /all Established +21000 ms +event loop held at most 42 ms meanwhile/);
  t.regex(text, /\/openapi\/v2 +first +120 ms +cached +4\.0 ms +30\.0 MiB +If-None-Match 304/);
  t.regex(text, /discovery +220 groups in aggregated \/apis, ETag stable/);
  t.true(text.indexOf('all Established') < text.indexOf('CRDs: event-loop hold'));
});
