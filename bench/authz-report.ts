/** The authz group's lines and verdict (bench/authz.ts). */
import type { AuthzResults } from './authz.js';
import { targets } from './config.js';
import type { Verdict } from './report.js';

export const authzMethod =
  'Authz: one data dir set up in a throw-away kapi process (RBAC): widget w1, BENCH_AUTHZ_OBJECTS Roles and as many RoleBindings for ' +
  'other users, one RoleBinding letting a static-token user get widgets; then GET of w1 as that user (32 connections, after a warm-up) ' +
  'in a fresh process with AlwaysAllow, then with RBAC: RBAC req/s ÷ AlwaysAllow req/s.';

export function authzVerdict(r: AuthzResults): Verdict {
  const min = targets.rbacGetOverAlwaysAllowMin;
  return { name: `GET with RBAC (${r.objects} roles + bindings) / AlwaysAllow`, value: r.ratio, target: min, unit: 'ratio', pass: r.ratio >= min };
}

export function formatAuthz(r: AuthzResults): string[] {
  return [
    `  authorization — GET of one widget as a user bound by one RoleBinding, ${r.objects} Roles and RoleBindings for other users in place`,
    `  ${'AlwaysAllow'.padEnd(22)} ${r.alwaysAllow.reqPerSec.toFixed(0).padStart(7)} req/s   p99 ${r.alwaysAllow.latencyMs.p99.toFixed(1)} ms`,
    `  ${'RBAC'.padEnd(22)} ${r.rbac.reqPerSec.toFixed(0).padStart(7)} req/s   p99 ${r.rbac.latencyMs.p99.toFixed(1)} ms   ${(100 * r.ratio).toFixed(1)}% of AlwaysAllow`,
  ];
}
