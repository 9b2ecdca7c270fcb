import type { ResourceScope } from './request-scope.js';
import type { WriteRequest } from '../rest/write-request.js';
import { managerName } from './write-options.js';
import { addWarnings } from './warnings.js';
import { admissionAuditAnnotations } from '../audit/request-audit.js';

/** The write an HTTP request asks for, as the generic store takes it; warnings go out as `Warning` headers. */
export function writeRequestOf(scope: ResourceScope, dryRun: boolean, target: { namespace: string; name: string } = scope.info): WriteRequest {
  const { ctx, query } = scope;
  const fieldManager = query.get('fieldManager');
  const req: WriteRequest = {
    rt: scope.rt,
    version: scope.version,
    versionDef: scope.versionDef,
    user: scope.user,
    namespace: target.namespace,
    name: target.name,
    subresource: scope.info.subresource,
    dryRun,
    manager: managerName(query, ctx.get('user-agent')),
    pipeline: scope.pipeline,
    warn: (warnings) => addWarnings(ctx, warnings),
  };
  if (fieldManager) req.fieldManagerOption = fieldManager;
  const auditAnnotations = admissionAuditAnnotations(ctx);
  if (auditAnnotations) req.auditAnnotations = auditAnnotations;
  return req;
}
