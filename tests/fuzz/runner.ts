/**
 * Runs fuzz cases against a kapi server: sets up the namespaces and target objects, sends the cases a few at a time,
 * and checks each answer — no 5xx, no answer later than 2 s, /readyz still 200 every `readyEvery` cases and at the end,
 * and nothing stored changed by a non-2xx answer (a target's digest, a refused create's name). Returns the figures.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { fuzzCase, type FuzzCase, type FuzzGroup } from './cases.js';
import type { FuzzAnswer, FuzzClient } from './client.js';
import { contentTypes } from './encode.js';
import { fuzzNamespace, kinds, scratchNamespace, type FuzzKind } from './seeds.js';

export const slowMs = 2000;

export interface FuzzPlan {
  seed: number;
  /** Cases to run per group, e.g. `{ json: 2000, query: 1000 }`. */
  cases: Partial<Record<FuzzGroup, number>>;
  concurrency: number;
  readyEvery: number;
  /** Called with each case's name as it starts (to find the case a stuck server is busy with). */
  trace?: (name: string) => void;
}

export interface FuzzFinding {
  problem: string;
  request: string;
}

export interface FuzzFigures {
  seed: number;
  /**
   * 504s kube-apiserver gives too, not counted as findings: a read at a resourceVersion ahead of the store waits 3 s
   * for it, then answers 504 Timeout "Too large resource version" (the watch cache's TooLargeResourceVersionError).
   */
  tooLargeResourceVersion: number;
  cases: Partial<Record<FuzzGroup, number>>;
  /** Answers per group by status code (0: no answer). */
  statuses: Partial<Record<FuzzGroup, Record<number, number>>>;
  slowest: { ms: number; request: string };
  findings: FuzzFinding[];
}

/** A reproducible description of a case: the seed, group, index, request line, content type and a truncated body. */
export function describeCase(seed: number, c: FuzzCase, body?: Buffer): string {
  const binary = c.group === 'cbor' || c.group === 'protobuf';
  const shown = body ? (binary ? body.subarray(0, 160).toString('hex') : JSON.stringify(body.subarray(0, 300).toString('utf8'))) : '';
  return `FUZZ_SEED=${seed} case ${c.group}#${c.index} (${c.label}): ${c.method} ${c.path.slice(0, 300)}${c.path.length > 300 ? '…' : ''}` +
    (body ? ` content-type=${c.contentType} body[${body.length}]=${shown}` : '');
}

const widgetsCrdFile = fileURLToPath(new URL('../../../examples/crd-only/widgets-crd.yaml', import.meta.url));

/** Objects compared before and after a refused write: all but status, resourceVersion and managedFields. */
function digest(obj: any): string {
  const { status: _status, metadata, ...rest } = obj ?? {};
  const { resourceVersion: _rv, managedFields: _mf, ...meta } = metadata ?? {};
  return createHash('sha256').update(JSON.stringify({ meta, rest })).digest('hex');
}

function createdObjectName(body: Buffer): string | undefined {
  try {
    const name = JSON.parse(body.toString('utf8'))?.metadata?.name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`fuzz set-up: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Creates what the cases need (an existing object counts): the widgets CRD, the namespaces and each kind's target. */
export async function setUpFuzzTargets(client: FuzzClient): Promise<void> {
  const created = (what: string, res: { status: number; body: any }) => {
    if (res.status !== 201 && res.status !== 409) throw new Error(`fuzz set-up: ${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  };
  created('widgets CRD', await client.json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', YAML.parse(await readFile(widgetsCrdFile, 'utf8'))));
  for (const ns of [fuzzNamespace, scratchNamespace]) created(`namespace ${ns}`, await client.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
  const served = async (gv: string, plural: string) => {
    const res = await client.json('GET', gv);
    return res.status === 200 && res.body.resources.some((r: { name: string }) => r.name === plural);
  };
  await until('widgets to be served', () => served('/apis/example.com/v1', 'widgets'));
  for (const kind of kinds) {
    const { status: _status, ...object } = kind.seed(kind.target);
    created(`${kind.name} ${kind.target}`, await client.json('POST', kind.collection, object));
  }
  await until('fuzzthings to be served', () => served('/apis/fuzz.example.com/v1', 'fuzzthings'));
}

/** Serializes the cases writing to one target, so that its digest before and after belongs to one write. */
class TargetState {
  private readonly locks = new Map<string, Promise<void>>();
  private readonly seen = new Map<string, { digest: string; rv: string }>();

  constructor(private readonly client: FuzzClient) {}

  async exclusive<T>(kind: FuzzKind, body: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(kind.name) ?? Promise.resolve();
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    this.locks.set(kind.name, prev.then(() => next));
    await prev;
    try {
      return await body();
    } finally {
      release();
    }
  }

  /** The target as stored now. */
  async read(kind: FuzzKind): Promise<{ digest: string; rv: string }> {
    const res = await this.client.json('GET', `${kind.collection}/${kind.target}`);
    if (res.status !== 200) throw new Error(`reading the fuzz target ${kind.name} ${kind.target}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return { digest: digest(res.body), rv: String(res.body.metadata.resourceVersion) };
  }

  async last(kind: FuzzKind): Promise<{ digest: string; rv: string }> {
    const known = this.seen.get(kind.name) ?? (await this.read(kind));
    this.seen.set(kind.name, known);
    return known;
  }

  remember(kind: FuzzKind, state: { digest: string; rv: string }): void {
    this.seen.set(kind.name, state);
  }
}

export async function runFuzz(client: FuzzClient, plan: FuzzPlan, progress?: (line: string) => void): Promise<FuzzFigures> {
  const figures: FuzzFigures = { seed: plan.seed, tooLargeResourceVersion: 0, cases: {}, statuses: {}, slowest: { ms: 0, request: '' }, findings: [] };
  const targets = new TargetState(client);
  // Which cases, interleaving the groups so that reads, writes and paths run side by side; each is built when it runs.
  const order: [FuzzGroup, number][] = [];
  const groups = Object.entries(plan.cases) as [FuzzGroup, number][];
  for (let i = 0; groups.some(([, n]) => i < n); i++) for (const [group, n] of groups) if (i < n) order.push([group, i]);
  let done = 0;

  const ready = async (when: string) => {
    const res = await client.send({ method: 'GET', path: '/readyz' });
    if (res.status !== 200) figures.findings.push({ problem: `/readyz answered ${res.status} ${res.error ?? res.body.toString('utf8').slice(0, 300)}`, request: when });
  };

  const slow: { c: FuzzCase; ms: number; status: number; request: string }[] = [];
  const record = (c: FuzzCase, a: FuzzAnswer, request: string) => {
    figures.cases[c.group] = (figures.cases[c.group] ?? 0) + 1;
    const byStatus = (figures.statuses[c.group] ??= {});
    byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    const ms = c.stream ? a.headersMs : a.totalMs;
    if (a.status === 504 && a.body.includes('Too large resource version')) {
      figures.tooLargeResourceVersion++;
      return;
    }
    if (ms > figures.slowest.ms) figures.slowest = { ms: Math.round(ms), request };
    if (a.status === 0) figures.findings.push({ problem: `no answer: ${a.error}`, request });
    else if (a.status >= 500) figures.findings.push({ problem: `${a.status}: ${a.body.toString('utf8').slice(0, 400)}`, request });
    if (ms > slowMs) slow.push({ c, ms, status: a.status, request });
  };

  const runOne = async (c: FuzzCase) => {
    if (c.target) {
      const kind = c.target;
      await targets.exclusive(kind, async () => {
        const before = await targets.last(kind);
        const body = c.body!(before.rv);
        const request = describeCase(plan.seed, c, body);
        const a = await client.send({ method: c.method, path: c.path, contentType: c.contentType, body });
        record(c, a, request);
        let after: { digest: string; rv: string };
        try {
          after = await targets.read(kind);
        } catch (err) {
          figures.findings.push({ problem: (err as Error).message, request });
          return;
        }
        targets.remember(kind, after);
        // Without an answer (status 0) the outcome is unknown: only a refusal must leave the target as it was.
        if (a.status !== 0 && (a.status < 200 || a.status > 299) && after.digest !== before.digest) figures.findings.push({ problem: `refused with ${a.status} yet the stored ${kind.name} changed`, request });
      });
      return;
    }
    const body = c.body?.('');
    const request = describeCase(plan.seed, c, body);
    const a = await client.send({ method: c.method, path: c.path, contentType: c.contentType ?? contentTypes.json, body, stream: c.stream });
    record(c, a, request);
    if (!c.creates || a.status === 0) return;
    const { kind, name } = c.creates;
    if (a.status >= 200 && a.status <= 299) {
      // Keep the server small: what a case created goes again.
      const createdName = createdObjectName(a.body);
      if (createdName !== undefined) await client.send({ method: 'DELETE', path: `${kind.collection}/${encodeURIComponent(createdName)}` });
    } else {
      const got = await client.send({ method: 'GET', path: `${kind.collection}/${name}` });
      if (got.status !== 404) figures.findings.push({ problem: `refused with ${a.status} yet GET of the name answers ${got.status}`, request });
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < order.length) {
      const [group, index] = order[next++]!;
      if (plan.trace) plan.trace(`${group}#${index}`);
      await runOne(fuzzCase(plan.seed, group, index));
      done++;
      if (done % plan.readyEvery === 0) {
        await ready(`after ${done} cases`);
        progress?.(`${done}/${order.length} cases, ${figures.findings.length} findings`);
      }
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
  // A slow answer may be a victim of another case's work: each is sent again alone, and both times are reported.
  for (const { c, ms, status, request } of slow) {
    const alone = await client.send({ method: c.method, path: c.path, contentType: c.contentType ?? contentTypes.json, body: c.body?.(''), stream: c.stream });
    const aloneMs = Math.round(c.stream ? alone.headersMs : alone.totalMs);
    figures.findings.push({ problem: `answered ${status} after ${Math.round(ms)} ms (sent again alone: ${alone.status} after ${aloneMs} ms)`, request });
  }
  await ready('at the end');
  for (const kind of kinds) await targets.read(kind).catch((err: Error) => figures.findings.push({ problem: err.message, request: 'at the end' }));
  return figures;
}
