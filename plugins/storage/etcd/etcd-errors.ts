import { ApiError, errors } from '../../../core/contracts/api-error.js';
import { GrpcCode, GrpcError } from './grpc/grpc-error.js';

/**
 * What etcd's (and gRPC's) failures mean for kapi. The client's errors (GrpcError) have the message
 * "<code> <CODE NAME>: <details>", e.g. "14 UNAVAILABLE: No connection established: connect ECONNREFUSED ...".
 */

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The gRPC status code of a failed call (-1 for any other error). */
function grpcCode(err: unknown): number {
  return err instanceof GrpcError ? err.code : -1;
}

/** The message without its "<code> <CODE NAME>: " lead. */
export function details(err: unknown): string {
  return err instanceof GrpcError ? err.details : message(err);
}

const { UNKNOWN, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE, CANCELLED } = GrpcCode;

/** A read or compaction below etcd's compacted revision. */
export function isCompacted(err: unknown): boolean {
  return message(err).includes('required revision has been compacted');
}

/** A read or compaction beyond etcd's current revision. */
export function isFutureRevision(err: unknown): boolean {
  return message(err).includes('required revision is a future revision');
}

/** The request never reached etcd (no connection to the member): safe to retry even for a write. */
export function wasNotSent(err: unknown): boolean {
  return err instanceof GrpcError && err.notSent;
}

/**
 * etcd (or the way to it) is unavailable or slow for now: member down, connection dropped, no leader, leader changed,
 * request timed out, too many requests. Reads are retried on these while time remains; writes only when
 * {@link wasNotSent} (a write that timed out may still be applied).
 */
export function isTransient(err: unknown): boolean {
  if (isTooLarge(err)) return false;
  const code = grpcCode(err);
  if (code === UNAVAILABLE || code === DEADLINE_EXCEEDED || code === RESOURCE_EXHAUSTED || code === CANCELLED) return true;
  // etcd reports some of its own unavailability as UNKNOWN ("etcdserver: request timed out" on older servers).
  return code === UNKNOWN && /etcdserver: (request timed out|leader changed|no leader|server stopped)/.test(message(err));
}

/** The request exceeds etcd's size limit (`--max-request-bytes`, 1.5 MiB by default; gRPC's own limit above it). */
function isTooLarge(err: unknown): boolean {
  return /etcdserver: request is too large|grpc: received message larger than max/.test(message(err));
}

function isTimeout(err: unknown): boolean {
  return grpcCode(err) === DEADLINE_EXCEEDED || /etcdserver: request timed out/.test(message(err));
}

/** etcd refused the request before acting on it: too many requests pending (`etcdserver: too many requests`). */
function wasRefused(err: unknown): boolean {
  return grpcCode(err) === RESOURCE_EXHAUSTED;
}

/** kube-apiserver's answer when a request's deadline passed before storage answered (its timeout filter's Status). */
const deadlineExceeded = 'Timeout: request did not complete within requested timeout - context deadline exceeded';

/**
 * The Status a failed etcd call answers with: 413 for etcd's request size limit, 504 Timeout when etcd did not answer
 * in time (or said it timed out), and for a write sent to etcd that got no answer (the connection was lost, the leader
 * changed): it may have been applied, so the client must not be told it was not. 503 ServiceUnavailable when etcd is
 * unreachable or without a leader and the request was a read, or a write that certainly was not applied. Other errors
 * are returned as they are (500 at the edge).
 */
export function toApiError(err: unknown, kind: 'read' | 'write' = 'read'): Error {
  if (err instanceof ApiError) return err;
  if (isTooLarge(err)) return errors.tooLarge(details(err));
  if (isTimeout(err)) return errors.timeout(grpcCode(err) === DEADLINE_EXCEEDED ? deadlineExceeded : details(err));
  if (kind === 'write' && isTransient(err) && !wasNotSent(err) && !wasRefused(err)) return errors.timeout(deadlineExceeded);
  if (isTransient(err)) {
    return errors.serviceUnavailable(`etcd cluster is unavailable or misconfigured: ${details(err)}`);
  }
  if (err instanceof Error && err.message.includes('client was already closed')) return storageClosed();
  return err instanceof Error ? err : new Error(String(err));
}

export function storageClosed(): ApiError {
  return errors.serviceUnavailable('etcd storage is closed');
}
