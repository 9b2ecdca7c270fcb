import type { RouteContext } from '../contracts/route.js';
import { errors } from '../contracts/api-error.js';
import { defineModule, type Module } from '../contracts/module.js';
import { Tokens } from '../contracts/tokens.js';
import type { HealthCheck } from '../contracts/health-check.js';
import { healthReport } from './health-report.js';
import { pingCheck } from './ping-check.js';

const endpoints = ['healthz', 'livez', 'readyz'] as const;
type Endpoint = (typeof endpoints)[number];

/**
 * /healthz, /livez and /readyz with kube-apiserver's output, plus /<endpoint>/<check> for one check. The checks are
 * `ping` and every registered `Tokens.HealthCheck`; readiness-only checks belong to /readyz alone.
 */
export function healthModule(): Module {
  return defineModule('health', (container) => {
    const checksOf = (endpoint: Endpoint): HealthCheck[] => {
      const registered = container.isRegistered(Tokens.HealthCheck, true) ? container.resolveAll(Tokens.HealthCheck) : [];
      return [pingCheck, ...registered].filter((c) => endpoint === 'readyz' || !c.readinessOnly);
    };
    for (const endpoint of endpoints) {
      container.register(Tokens.Route, { useValue: { path: `/${endpoint}`, handle: (ctx: RouteContext) => respondAll(ctx, endpoint, checksOf(endpoint)) } });
      container.register(Tokens.Route, { useValue: { path: `/${endpoint}/*`, handle: (ctx: RouteContext) => respondOne(ctx, endpoint, checksOf(endpoint)) } });
    }
  });
}

async function respondAll(ctx: RouteContext, endpoint: Endpoint, checks: HealthCheck[]): Promise<void> {
  const query = new URLSearchParams(ctx.querystring);
  const report = await healthReport(endpoint, checks, query.getAll('exclude'), query.has('verbose'));
  ctx.set('X-Content-Type-Options', 'nosniff');
  plainText(ctx, report.status, report.body);
}

/** One check: `ok`, or 500 with the reason (kube only shows it here). */
async function respondOne(ctx: RouteContext, endpoint: Endpoint, checks: HealthCheck[]): Promise<void> {
  const check = checks.find((c) => c.name === ctx.path.slice(endpoint.length + 2));
  if (!check) throw errors.pathNotFound();
  try {
    await check.check();
    plainText(ctx, 200, 'ok');
  } catch (err) {
    ctx.set('X-Content-Type-Options', 'nosniff');
    plainText(ctx, 500, `internal server error: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}

function plainText(ctx: RouteContext, status: number, body: string): void {
  ctx.status = status;
  ctx.set('Content-Type', 'text/plain; charset=utf-8');
  ctx.body = body;
}
