import { defineModule, type Module } from '../../core/contracts/module.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { AuditLogBackend, type AuditLogOptions } from './log-backend.js';

export { AuditLogBackend, auditEventLine, type AuditLogOptions } from './log-backend.js';

/**
 * The audit log as a module (kube's --audit-log-path with --audit-log-maxsize, -maxbackup, -maxage): events as JSON
 * lines in a rotated file or on standard output. The file is created now, so a path that cannot be written throws here.
 * Events are only written under an audit policy (see auditModule).
 */
export function auditLog(options: AuditLogOptions): Module {
  const backend = new AuditLogBackend(options);
  return defineModule('audit-log', (c) => c.register(Tokens.AuditBackend, { useValue: backend }));
}
