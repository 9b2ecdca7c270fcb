// The seeded fuzzer (tests/fuzz/) at CI size: mutated bodies in each codec over the write paths, mutated query strings
// and URL paths; no answer may be a 5xx or take over 2 s, /readyz stays 200, and a refused write changes nothing.
// A failure names the seed and case; FUZZ_SEED=<n> reruns with another seed.
import test from 'ava';
import { fuzzClient, type FuzzClient } from '../fuzz/client.js';
import { codecNames } from '../fuzz/encode.js';
import { runFuzz, setUpFuzzTargets, type FuzzFigures } from '../fuzz/runner.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });
const seed = Number(process.env['FUZZ_SEED'] ?? 20261126);
let client: FuzzClient;

test.serial.before(async () => {
  client = fuzzClient(server.url, server.ca, server.token, 4);
  await setUpFuzzTargets(client);
});
test.after.always(() => client?.close());

function summary(f: FuzzFigures): string {
  return `seed ${f.seed}, ${f.findings.length} findings:\n${f.findings.slice(0, 10).map((x) => `- ${x.problem}\n  ${x.request}`).join('\n')}`;
}

// The server shares this process: bodies are sent one at a time, so that building a large one (megabytes of YAML or
// CBOR) cannot delay the answers to others; cheap query strings and paths go four at a time.
const plans = [
  ...codecNames.map((codec) => ({ title: `${codec} bodies over the write paths`, cases: { [codec]: 2000 }, concurrency: 1 })),
  { title: 'query strings on list, get, watch and delete', cases: { query: 1000 }, concurrency: 4 },
  { title: 'URL paths', cases: { path: 1000 }, concurrency: 4 },
];

for (const plan of plans) {
  test.serial(`fuzz: ${plan.title} answer below 500 within 2 s and refused writes change nothing`, async (t) => {
    t.timeout(5 * 60_000);
    const figures = await runFuzz(client, { seed, cases: plan.cases, concurrency: plan.concurrency, readyEvery: 250 });
    t.deepEqual(figures.cases, plan.cases);
    t.deepEqual(figures.findings, [], summary(figures));
  });
}
