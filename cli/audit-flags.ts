import { resolve } from 'node:path';
import { AuditPolicyError, loadAuditPolicyFile, type AuditLogOptions, type AuditPolicy } from '../index.js';
import { UsageError } from './usage-error.js';

export const auditUsage = `  --audit-policy-file FILE    audit.k8s.io/v1 Policy (YAML or JSON) deciding what is audited; without it nothing is
  --audit-log-path PATH       write audit events to this file as JSON lines, "-" for standard output
  --audit-log-maxsize MB      rotate the audit log when it would pass this size (default 0: 100 MB)
  --audit-log-maxbackup N     rotated audit logs kept (default 0: all)
  --audit-log-maxage DAYS     days rotated audit logs are kept, by the time in their names (default 0: forever)
  --audit-log-format json     the audit log's format (json, the default and only one kapi writes)
`;

export const auditFlagOptions = {
  'audit-policy-file': { type: 'string' },
  'audit-log-path': { type: 'string' },
  'audit-log-maxsize': { type: 'string' },
  'audit-log-maxbackup': { type: 'string' },
  'audit-log-maxage': { type: 'string' },
  'audit-log-format': { type: 'string' },
} as const;

type AuditFlag = keyof typeof auditFlagOptions;

/** The `--audit-*` flags: a policy loaded and checked now (a bad one is a usage error), and where the log goes. */
export interface AuditServeOptions {
  auditPolicy?: AuditPolicy;
  auditLog?: AuditLogOptions;
}

/** kube-apiserver's audit options, with its messages; the log settings are checked only with a log path, as kube does. */
export function parseAuditFlags(values: Partial<Record<AuditFlag, string>>): AuditServeOptions {
  const policyFile = values['audit-policy-file'];
  const path = values['audit-log-path'];
  const format = values['audit-log-format'] ?? 'json';
  const maxSizeMB = parseCount(values, 'audit-log-maxsize');
  const maxBackups = parseCount(values, 'audit-log-maxbackup');
  const maxAgeDays = parseCount(values, 'audit-log-maxage');
  if (path) {
    if (format === 'legacy') throw new UsageError('--audit-log-format legacy is not supported by kapi: use json');
    if (format !== 'json') throw new UsageError(`invalid audit log format ${format}, allowed formats are "legacy,json"`);
    if (maxAgeDays < 0) throw new UsageError(`--audit-log-maxage ${maxAgeDays} can't be a negative number`);
    if (maxBackups < 0) throw new UsageError(`--audit-log-maxbackup ${maxBackups} can't be a negative number`);
    if (maxSizeMB < 0) throw new UsageError(`--audit-log-maxsize ${maxSizeMB} can't be a negative number`);
  }
  return {
    ...(policyFile ? { auditPolicy: loadPolicy(resolve(policyFile)) } : {}),
    ...(path ? { auditLog: { path: path === '-' ? '-' : resolve(path), maxSizeMB, maxBackups, maxAgeDays } } : {}),
  };
}

function loadPolicy(path: string): AuditPolicy {
  try {
    return loadAuditPolicyFile(path);
  } catch (err) {
    if (err instanceof AuditPolicyError) throw new UsageError(`loading audit policy file: ${err.message}`);
    throw err;
  }
}

/** An int flag as pflag parses it (absent: 0). */
function parseCount(values: Partial<Record<AuditFlag, string>>, flag: AuditFlag): number {
  const text = values[flag];
  if (text === undefined) return 0;
  if (!/^[+-]?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`invalid argument "${text}" for "--${flag}" flag: strconv.ParseInt: parsing "${text}": invalid syntax`);
  }
  return Number(text);
}
