import { errors, fieldErrors } from '../contracts/api-error.js';
import type { StatusCause } from '../contracts/status.js';
import { queryBool } from '../request/query-bool.js';
import { isGoPrint } from '../../lib/go/go-values.js';
import { dryRunCauses, fieldValidationCauses } from './query-options.js';

/** kube's FieldManagerMaxLength. */
const maxFieldManagerLength = 128;

export type WriteOptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

/**
 * `fieldManager`, `force`, `dryRun` and `fieldValidation` checked as kube's ValidateCreate/Update/PatchOptions do, before
 * the body is read: 422 Invalid on
 * `<kind>.meta.k8s.io ""`. `apply` marks a server-side apply patch, which requires a manager and alone may force.
 */
export function validateWriteOptions(query: URLSearchParams, kind: WriteOptionsKind, apply = false): void {
  const causes: StatusCause[] = [];
  const manager = query.get('fieldManager') ?? '';
  if (kind === 'PatchOptions') {
    if (!apply && query.has('force')) causes.push(fieldErrors.forbidden('force', 'may not be specified for non-apply patch'));
    if (apply && manager === '') causes.push(fieldErrors.required('fieldManager', 'is required for apply patch'));
  }
  if (manager.length > maxFieldManagerLength) {
    causes.push({ reason: 'FieldValueTooLong', message: `Too long: may not be more than ${maxFieldManagerLength} bytes`, field: 'fieldManager' });
  }
  for (const ch of manager) {
    if (!isGoPrint(ch)) {
      causes.push(fieldErrors.invalid('fieldManager', manager, `invalid character ${goRuneQuote(ch)}`));
      break;
    }
  }
  causes.push(...dryRunCauses(query.getAll('dryRun')), ...fieldValidationCauses(query));
  if (causes.length > 0) throw errors.invalid({ group: 'meta.k8s.io', resource: kind, kind, name: '' }, causes);
}

/** Whether `force` was asked (kube's *bool: `force`, `force=`, `force=True` all force). */
export function parseForce(query: URLSearchParams): boolean {
  return queryBool(query, 'force') ?? false;
}

/** The manager of a write: `fieldManager`, else the User-Agent up to its first "/" (as kube derives it). */
export function managerName(query: URLSearchParams, userAgent: string): string {
  return query.get('fieldManager') || userAgent.split('/')[0]!.slice(0, maxFieldManagerLength);
}

/** Go's %#U: U+0007 (with the character when printable, which it never is here). */
function goRuneQuote(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
