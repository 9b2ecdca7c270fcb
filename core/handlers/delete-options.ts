import type { Context } from 'koa';
import { errors, fieldErrors } from '../contracts/api-error.js';
import type { StatusCause } from '../contracts/status.js';
import { queryBool } from '../request/query-bool.js';
import { decodeBody } from '../contracts/body-decoding.js';
import type { CodecSet } from '../codec/codec-set.js';
import { readRawBody } from './request-body.js';
import { dryRunCauses, parseDryRun, parseInt64Param } from './query-options.js';
import type { DeletePreconditions } from '../store/resource-store.js';
import type { DeletePropagation } from '../store/deletion-propagation.js';

export interface DeleteOptions extends DeletePropagation {
  dryRun: boolean;
  preconditions: DeletePreconditions;
  gracePeriodSeconds?: number;
}

/** In kube's order (its NotSupported message lists them so). */
const policies = ['Foreground', 'Background', 'Orphan'];

/** What a DeleteOptions body is decoded as (kube accepts it under any group version too). */
const deleteOptionsType = { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' };

/**
 * DeleteOptions from the (optional) body and the query, as kube merges them. A body is decoded by the codec its
 * Content-Type names (415 when none does), as kube negotiates it only when there is a body.
 */
export async function readDeleteOptions(ctx: Context, query: URLSearchParams, maxBodyBytes: number, codecs: CodecSet): Promise<DeleteOptions> {
  const raw = await readRawBody(ctx, maxBodyBytes);
  let body: Record<string, unknown> = {};
  if (raw.length > 0) {
    const parsed = decodeBody(codecs.forBody(ctx.get('content-type')), raw, deleteOptionsType);
    if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) throw errors.badRequest('the DeleteOptions provided are malformed: expected a JSON object');
    body = (parsed ?? {}) as Record<string, unknown>;
  }
  const bodyDryRun = Array.isArray(body.dryRun) ? (body.dryRun as unknown[]).map(String) : [];
  const dryRunValues = [...query.getAll('dryRun'), ...bodyDryRun];
  const dryRun = parseDryRun(dryRunValues);
  const policy = query.get('propagationPolicy') ?? (typeof body.propagationPolicy === 'string' ? body.propagationPolicy : undefined);
  const pre = (body.preconditions ?? {}) as Record<string, unknown>;
  const gracePeriodSeconds = parseInt64Param(query, 'gracePeriodSeconds') ?? (typeof body.gracePeriodSeconds === 'number' ? body.gracePeriodSeconds : undefined);
  const orphanDependents = queryBool(query, 'orphanDependents') ?? (typeof body.orphanDependents === 'boolean' ? body.orphanDependents : undefined);
  const propagationPolicy = validateDeleteOptions(policy, orphanDependents, dryRunValues);
  return {
    dryRun,
    preconditions: {
      uid: typeof pre.uid === 'string' ? pre.uid : undefined,
      resourceVersion: typeof pre.resourceVersion === 'string' ? pre.resourceVersion : undefined,
    },
    propagationPolicy,
    gracePeriodSeconds,
    orphanDependents,
  };
}

/** kube's ValidateDeleteOptions: 422 Invalid on `DeleteOptions.meta.k8s.io ""`; returns the policy, now known valid. */
function validateDeleteOptions(propagationPolicy: string | undefined, orphanDependents: boolean | undefined, dryRun: string[]): DeletePropagation['propagationPolicy'] {
  const causes: StatusCause[] = [];
  if (propagationPolicy !== undefined && orphanDependents !== undefined) {
    causes.push(fieldErrors.invalid('propagationPolicy', propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (propagationPolicy !== undefined && !policies.includes(propagationPolicy)) {
    causes.push(fieldErrors.notSupported('propagationPolicy', propagationPolicy, [...policies, 'nil']));
  }
  causes.push(...dryRunCauses(dryRun));
  if (causes.length > 0) throw errors.invalid({ group: 'meta.k8s.io', resource: 'DeleteOptions', kind: 'DeleteOptions', name: '' }, causes);
  return propagationPolicy as DeletePropagation['propagationPolicy'];
}

/** What the generic store passes on to the garbage collector. */
export function deletePropagation({ propagationPolicy, orphanDependents }: DeleteOptions): DeletePropagation {
  return { propagationPolicy, orphanDependents };
}

/** What delete admission sees in the write's DeleteOptions beyond dryRun. */
export function deleteAdmissionOptions(opts: DeleteOptions): Record<string, unknown> {
  const { propagationPolicy, gracePeriodSeconds, preconditions } = opts;
  return { propagationPolicy, gracePeriodSeconds, preconditions };
}
