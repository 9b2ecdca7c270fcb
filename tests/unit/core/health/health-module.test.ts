import 'reflect-metadata';
import test from 'ava';
import { container } from 'tsyringe';
import type { HealthCheck } from '../../../../core/contracts/health-check.js';
import { healthModule } from '../../../../core/health/health-module.js';
import { Tokens } from '../../../../core/contracts/tokens.js';
import { serveRoutes } from '../../../helpers/route-server.js';

const healthy = (name: string, readinessOnly = false): HealthCheck => ({ name, readinessOnly, check: async () => {} });
const failing = (name: string, reason: string): HealthCheck => ({ name, check: async () => Promise.reject(new Error(reason)) });

/** The health module in a child container with the given checks, served by a koa app that dispatches to its routes. */
async function serve(checks: HealthCheck[]) {
  const c = container.createChildContainer();
  for (const check of checks) c.register(Tokens.HealthCheck, { useValue: check });
  healthModule()(c);
  const { host, close } = await serveRoutes(c);
  return {
    get: async (path: string) => {
      const res = await fetch(`http://${host}${path}`);
      return { status: res.status, headers: res.headers, body: await res.text() };
    },
    close,
  };
}

test('healthy endpoints answer a plain "ok"', async (t) => {
  const s = await serve([healthy('storage')]);
  t.teardown(s.close);
  for (const path of ['/healthz', '/livez', '/readyz']) {
    const res = await s.get(path);
    t.is(res.status, 200, path);
    t.is(res.body, 'ok', path);
    t.is(res.headers.get('content-type'), 'text/plain; charset=utf-8', path);
    t.is(res.headers.get('x-content-type-options'), 'nosniff', path);
  }
});

test('?verbose lists every check; readiness-only checks are only in /readyz', async (t) => {
  const s = await serve([healthy('storage'), healthy('informer-sync', true)]);
  t.teardown(s.close);
  t.is((await s.get('/livez?verbose')).body, '[+]ping ok\n[+]storage ok\nlivez check passed\n');
  t.is((await s.get('/healthz?verbose')).body, '[+]ping ok\n[+]storage ok\nhealthz check passed\n');
  t.is((await s.get('/readyz?verbose')).body, '[+]ping ok\n[+]storage ok\n[+]informer-sync ok\nreadyz check passed\n');
});

test('a failing check makes the endpoint 500 and lists the checks without the reason', async (t) => {
  const s = await serve([failing('storage', 'disk on fire'), healthy('informer-sync', true)]);
  t.teardown(s.close);
  for (const path of ['/readyz', '/readyz?verbose']) {
    const res = await s.get(path);
    t.is(res.status, 500);
    t.is(res.body, '[+]ping ok\n[-]storage failed: reason withheld\n[+]informer-sync ok\nreadyz check failed\n');
    t.is(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    t.is(res.headers.get('x-content-type-options'), 'nosniff');
  }
});

test('?exclude skips checks, and names the ones that match nothing', async (t) => {
  const s = await serve([failing('storage', 'disk on fire')]);
  t.teardown(s.close);
  const res = await s.get('/livez?verbose&exclude=storage&exclude=zeta&exclude=alpha');
  t.is(res.status, 200);
  t.is(res.body, '[+]ping ok\n[+]storage excluded: ok\nwarn: some health checks cannot be excluded: no matches for "alpha","zeta"\nlivez check passed\n');
  t.is((await s.get('/livez?exclude=storage')).body, 'ok');
});

test('a single check answers "ok", or 500 with its reason', async (t) => {
  const s = await serve([failing('storage', 'disk on fire'), healthy('informer-sync', true)]);
  t.teardown(s.close);
  const ping = await s.get('/livez/ping');
  t.is(ping.status, 200);
  t.is(ping.body, 'ok');
  t.is(ping.headers.get('content-type'), 'text/plain; charset=utf-8');
  t.is((await s.get('/readyz/informer-sync')).body, 'ok');
  const storage = await s.get('/readyz/storage');
  t.is(storage.status, 500);
  t.is(storage.body, 'internal server error: disk on fire\n');
  t.is(storage.headers.get('x-content-type-options'), 'nosniff');
});

test('unknown checks, and readiness-only checks outside /readyz, are 404', async (t) => {
  const s = await serve([healthy('informer-sync', true)]);
  t.teardown(s.close);
  for (const path of ['/livez/nope', '/healthz/informer-sync', '/livez/informer-sync']) {
    const res = await s.get(path);
    t.is(res.status, 404, path);
    t.like(JSON.parse(res.body), { kind: 'Status', reason: 'NotFound', code: 404 }, path);
  }
});

test('with no registered checks, ping alone is served', async (t) => {
  const s = await serve([]);
  t.teardown(s.close);
  t.is((await s.get('/readyz?verbose')).body, '[+]ping ok\nreadyz check passed\n');
  t.is((await s.get('/healthz/ping')).body, 'ok');
});
