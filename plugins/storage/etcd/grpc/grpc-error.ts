/** gRPC status codes (grpc/doc/statuscodes.md) and the error a failed call rejects with. */

export const GrpcCode = {
  CANCELLED: 1,
  UNKNOWN: 2,
  DEADLINE_EXCEEDED: 4,
  RESOURCE_EXHAUSTED: 8,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

const names = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

/**
 * A call that ended with a non-OK status. The message is "<code> <CODE NAME>: <details>", e.g.
 * "14 UNAVAILABLE: No connection established: connect ECONNREFUSED 127.0.0.1:2379" (etcd-errors.ts reads it).
 */
export class GrpcError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
    /** The request never left this process (no connection): retrying cannot apply it twice. */
    readonly notSent = false,
  ) {
    super(`${code} ${names[code] ?? 'UNKNOWN'}: ${details}`);
    this.name = 'GrpcError';
  }
}

/** The status of a response's `grpc-status`/`grpc-message` (the message is percent-encoded on the wire). */
export function statusError(status: string, message: string | undefined): GrpcError | undefined {
  const code = Number(status);
  if (code === 0) return undefined;
  let details = message ?? '';
  try {
    details = decodeURIComponent(details);
  } catch {
    // Not valid percent-encoding: keep it as it came.
  }
  return new GrpcError(Number.isInteger(code) ? code : GrpcCode.UNKNOWN, details);
}
