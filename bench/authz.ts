/**
 * The authz group: what RBAC authorization costs a GET. One data dir, set up in a throw-away kapi process (RBAC): the
 * widgets CRD and widget w1, BENCH_AUTHZ_OBJECTS Roles and as many RoleBindings granting them to other users, and one
 * Role + RoleBinding letting the bench's reader user get widgets. Then, each in a fresh process on that data dir, GET of
 * w1 as the reader with `--authorization-mode` RBAC, and with AlwaysAllow (the baseline): RBAC ÷ AlwaysAllow req/s.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext } from './context.js';
import { expectStatus, httpsClient } from './https-client.js';
import type { KapiServerSettings } from './kapi-server.js';
import { measure, type Figures } from './load.js';
import { withServer } from './server-process.js';
import { createWidgetW1, installWidgetsCrd, waitForWidgetsServed, widgetPath } from './widgets.js';

export interface AuthzResults {
  /** Roles and RoleBindings for other users in place. */
  objects: number;
  alwaysAllow: Figures;
  rbac: Figures;
  /** rbac.reqPerSec ÷ alwaysAllow.reqPerSec. */
  ratio: number;
}

const rbacPath = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';
const readerName = 'bench-reader';

export async function runAuthz(ctx: BenchContext): Promise<AuthzResults> {
  const { cfg, log } = ctx;
  const readerToken = randomBytes(32).toString('hex');
  const base: KapiServerSettings = {
    dataDir: join(ctx.root, 'data-authz'),
    pkiDir: ctx.pkiDir,
    token: ctx.token,
    users: [{ token: readerToken, user: { username: readerName, groups: ['system:authenticated'] } }],
  };
  await mkdir(base.dataDir, { recursive: true, mode: 0o700 });
  const rbac: KapiServerSettings = { ...base, authorization: 'RBAC' };

  log(`authz set-up: widget w1, ${cfg.authzObjects} Roles and RoleBindings for other users, one RoleBinding for ${readerName}`);
  await withServer('./kapi-server.js', rbac, async (url) => {
    const c = httpsClient(url, ctx.caCertPem, ctx.token, 32);
    try {
      await installWidgetsCrd(c);
      await waitForWidgetsServed(c);
      await createWidgetW1(c);
      for (let i = 0; i < cfg.authzObjects; i += 32) {
        const batch = Array.from({ length: Math.min(32, cfg.authzObjects - i) }, (_, j) => createRoleAndBinding(c, `other-${i + j}`, `user-${i + j}`));
        await Promise.all(batch);
      }
      await createRoleAndBinding(c, 'widget-reader', readerName);
    } finally {
      c.close();
    }
  });

  const headers = { authorization: `Bearer ${readerToken}`, accept: 'application/json' };
  const get = (title: string, settings: KapiServerSettings, profile: string) =>
    withServer('./kapi-server.js', settings, async (url, server) => {
      const c = httpsClient(url, ctx.caCertPem, readerToken);
      try {
        await waitForWidgetsServed(httpsClient(url, ctx.caCertPem, ctx.token));
        expectStatus(await c.request('GET', widgetPath), [200], `${title}: GET w1 as ${readerName}`);
      } finally {
        c.close();
      }
      return measure({ title, url, okStatus: 200, path: widgetPath, headers }, cfg, server, ctx.profilePath(profile));
    });
  log(`authz: GET w1 as ${readerName}, AlwaysAllow`);
  const alwaysAllow = await get('kapi GET, AlwaysAllow', { ...base, authorization: 'AlwaysAllow' }, 'kapi-get-always-allow');
  log(`authz: GET w1 as ${readerName}, RBAC with ${cfg.authzObjects} roles and bindings`);
  const rbacGet = await get('kapi GET, RBAC', rbac, 'kapi-get-rbac');
  return { objects: cfg.authzObjects, alwaysAllow, rbac: rbacGet, ratio: rbacGet.reqPerSec / alwaysAllow.reqPerSec };
}

/** A Role `name` allowing get of widgets, and a RoleBinding of it for `user`. */
async function createRoleAndBinding(c: ReturnType<typeof httpsClient>, name: string, user: string): Promise<void> {
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules: [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] }] };
  expectStatus(await c.request('POST', `${rbacPath}/roles`, role), [201], `create Role ${name}`);
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
  };
  expectStatus(await c.request('POST', `${rbacPath}/rolebindings`, binding), [201], `create RoleBinding ${name}`);
}
