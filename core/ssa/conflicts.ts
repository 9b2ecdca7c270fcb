/**
 * Apply conflicts as kube-apiserver reports them (fieldmanager internal/conflict.go): a 409 Conflict whose message
 * names each manager and path, with one FieldManagerConflict cause per conflicting field:
 *   Apply failed with 1 conflict: conflict with "kubectl" using example.com/v1: .spec.color
 *   Apply failed with 2 conflicts: conflicts with "a":\n- .spec.x\nconflicts with "b" using v1:\n- .spec.y
 * Appliers print as their name; updaters as `"name" using <apiVersion>`; a subresource adds `with subresource "status"`.
 */
import { ApiError } from '../contracts/api-error.js';
import { StatusReason } from '../contracts/status.js';
import type { FieldSet } from '../../schemas/structured-merge/field-set.js';
import { goCompare } from '../../lib/go/strings.js';
import { goQuote } from '../../lib/go/go-values.js';
import { pathString, type Path } from '../../schemas/structured-merge/path-element.js';

export interface Conflict {
  /** Manager identifier (managed-fields.ts). */
  manager: string;
  path: Path;
}

/** Conflicts by manager (in identifier order), each manager's paths in SMD's Set.Iterate order. */
export function conflictList(byManager: Map<string, FieldSet>): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...byManager.keys()].sort(goCompare)) {
    for (const path of byManager.get(manager)!.paths()) out.push({ manager, path });
  }
  return out;
}

/** printManager: how a manager identifier reads in a conflict. */
export function printManager(identifier: string): string {
  let e: { manager?: unknown; operation?: unknown; apiVersion?: unknown; subresource?: unknown };
  try {
    e = JSON.parse(identifier);
  } catch {
    return goQuote(identifier);
  }
  let s = goQuote(typeof e.manager === 'string' ? e.manager : '');
  if (typeof e.subresource === 'string' && e.subresource) s += ` with subresource ${goQuote(e.subresource)}`;
  if (e.operation === 'Update') s += ` using ${typeof e.apiVersion === 'string' ? e.apiVersion : ''}`;
  return s;
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].manager)}: ${pathString(conflicts[0].path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const paths = byManager.get(c.manager);
    if (paths) paths.push(c.path);
    else byManager.set(c.manager, [c.path]);
  }
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort(goCompare)) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const path of byManager.get(manager)!) lines.push(`- ${pathString(path)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The 409 kube-apiserver answers an apply with conflicts (NewApplyConflict: details carry only the causes). */
export function conflictError(conflicts: readonly Conflict[]): ApiError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathString(c.path) }));
  return new ApiError(409, StatusReason.Conflict, conflictMessage(conflicts), { causes });
}
