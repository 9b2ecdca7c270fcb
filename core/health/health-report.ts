import type { HealthCheck } from '../contracts/health-check.js';

export interface HealthReport {
  status: 200 | 500;
  body: string;
}

/**
 * Runs the checks of an endpoint (`healthz`, `livez`, `readyz`) in order and writes kube-apiserver's report: `ok`, or
 * with `verbose` one line per check and "<endpoint> check passed". A failure is always reported verbosely, without
 * its reason, and ends with "<endpoint> check failed". Excluded checks are not run.
 */
export async function healthReport(endpoint: string, checks: HealthCheck[], exclude: string[], verbose: boolean): Promise<HealthReport> {
  const excluded = new Set(exclude);
  let lines = '';
  let failed = false;
  for (const check of checks) {
    if (excluded.delete(check.name)) {
      lines += `[+]${check.name} excluded: ok\n`;
      continue;
    }
    try {
      await check.check();
      lines += `[+]${check.name} ok\n`;
    } catch {
      lines += `[-]${check.name} failed: reason withheld\n`;
      failed = true;
    }
  }
  if (excluded.size) {
    const names = [...excluded].sort().map((n) => JSON.stringify(n));
    lines += `warn: some health checks cannot be excluded: no matches for ${names.join(',')}\n`;
  }
  if (failed) return { status: 500, body: `${lines}${endpoint} check failed\n` };
  return { status: 200, body: verbose ? `${lines}${endpoint} check passed\n` : 'ok' };
}
