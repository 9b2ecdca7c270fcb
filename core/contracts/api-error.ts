import type { Status, StatusCause, StatusDetails } from './status.js';
export type { Status, StatusCause, StatusDetails } from './status.js';
export { fieldErrors, formatValue } from '../../lib/k8s/field-errors.js';
import { StatusReason } from './status.js';
import { boundedCauses, shortText } from './bounded-status.js';

/** The one error type of kapi: thrown from any layer, rendered once as a `Status` at the HTTP edge. */
export class ApiError extends Error {
  readonly status: Status;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(code: number, reason: string, message: string, details?: StatusDetails, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      // kube's StatusReasonUnknown is "" and left out of the JSON
      ...(reason ? { reason } : {}),
      ...(details ? { details } : {}),
      code,
    };
    this.headers = headers;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): string {
    return this.status.reason ?? '';
  }
}

/** Identifies the object an error is about: `widgets.example.com "w1"`. */
export interface Qualified {
  group: string;
  resource: string;
  name?: string;
}

/** `widgets.example.com` or `namespaces` for the core group. */
export function groupResource(q: Pick<Qualified, 'group' | 'resource'>): string {
  return q.group ? `${q.resource}.${q.group}` : q.resource;
}

function details(q: Qualified, kind?: string): StatusDetails {
  const d: StatusDetails = {};
  if (q.name !== undefined) d.name = q.name;
  if (q.group) d.group = q.group;
  d.kind = kind ?? q.resource;
  return d;
}

export const errors = {
  badRequest(message: string, causes?: StatusCause[]): ApiError {
    return new ApiError(400, StatusReason.BadRequest, message, causes ? { causes } : undefined);
  },
  unauthorized(message = 'Unauthorized'): ApiError {
    return new ApiError(401, StatusReason.Unauthorized, message);
  },
  forbidden(q: Qualified, reasonText: string): ApiError {
    const what = q.name !== undefined ? `${groupResource(q)} "${q.name}"` : groupResource(q);
    return new ApiError(403, StatusReason.Forbidden, `${what} is forbidden: ${reasonText}`, details(q));
  },
  notFound(q: Qualified): ApiError {
    const message = q.name !== undefined ? `${groupResource(q)} "${q.name}" not found` : `${groupResource(q)} not found`;
    return new ApiError(404, StatusReason.NotFound, message, details(q));
  },
  /** The bare 404 kube-apiserver gives for unknown paths. */
  pathNotFound(): ApiError {
    return new ApiError(404, StatusReason.NotFound, 'the server could not find the requested resource', {});
  },
  methodNotAllowed(message = 'the server does not allow this method on the requested resource'): ApiError {
    return new ApiError(405, StatusReason.MethodNotAllowed, message, {});
  },
  /** An action the resource's storage does not implement, where kube checks it in the handler (e.g. watch). */
  methodNotSupported(q: Pick<Qualified, 'group' | 'resource'>, action: string, message = `${action} is not supported on resources of kind ${JSON.stringify(groupResource(q))}`): ApiError {
    return new ApiError(405, StatusReason.MethodNotAllowed, message, details(q));
  },
  notAcceptable(message: string): ApiError {
    return new ApiError(406, StatusReason.NotAcceptable, message);
  },
  alreadyExists(q: Qualified): ApiError {
    return new ApiError(409, StatusReason.AlreadyExists, `${groupResource(q)} "${q.name}" already exists`, details(q));
  },
  conflict(q: Qualified, reasonText: string): ApiError {
    return new ApiError(409, StatusReason.Conflict, `Operation cannot be fulfilled on ${groupResource(q)} "${q.name}": ${reasonText}`, details(q));
  },
  /** Optimistic-concurrency failure, with kube-apiserver's exact text. */
  modified(q: Qualified): ApiError {
    return errors.conflict(q, 'the object has been modified; please apply your changes to the latest version and try again');
  },
  gone(message: string): ApiError {
    return new ApiError(410, StatusReason.Gone, message);
  },
  expired(message: string): ApiError {
    return new ApiError(410, StatusReason.Expired, message);
  },
  tooLarge(message = 'the request is too large'): ApiError {
    return new ApiError(413, StatusReason.RequestEntityTooLarge, message);
  },
  unsupportedMediaType(accepted: string[]): ApiError {
    return new ApiError(415, StatusReason.UnsupportedMediaType, `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
  },
  /** 422 with one cause per violation; message as kube-apiserver builds it, within kapi's bounds (bounded-list.ts). */
  invalid(q: Qualified & { kind: string }, causes: StatusCause[]): ApiError {
    const listed = boundedCauses(causes);
    const list = listed.map((c) => (c.field ? `${c.field}: ${c.message}` : (c.message ?? '')));
    const summary = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
    const name = shortText(q.name ?? '');
    const statusDetails: StatusDetails = { ...details(q, q.kind), name, causes: listed };
    // details.name and kind are omitempty in kube's StatusDetails: an options kind's "" name, or a patch whose result
    // does not decode (no kind, no name), leaves them out.
    if (!statusDetails.name) delete statusDetails.name;
    if (!statusDetails.kind) delete statusDetails.kind;
    return new ApiError(422, StatusReason.Invalid, `${q.kind}${q.group ? '.' + q.group : ''} "${name}" is invalid: ${summary}`, statusDetails);
  },
  tooManyRequests(message: string, retryAfterSeconds = 1): ApiError {
    return new ApiError(429, StatusReason.TooManyRequests, message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
  },
  /** An error kube-apiserver returns as a plain Go error rather than a Status (e.g. a failed conversion): 500, no reason. */
  unknown(message: string): ApiError {
    return new ApiError(500, '', message);
  },
  internal(message: string): ApiError {
    return new ApiError(500, StatusReason.InternalError, `Internal error occurred: ${message}`, { causes: [{ message }] });
  },
  serviceUnavailable(message: string): ApiError {
    return new ApiError(503, StatusReason.ServiceUnavailable, message);
  },
  timeout(message: string, retryAfterSeconds = 1): ApiError {
    return new ApiError(504, StatusReason.Timeout, message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
  },
  /** A read for a resourceVersion the server has not reached (kube's NewTooLargeResourceVersionError). */
  tooLargeResourceVersion(requested: number | string, current: number): ApiError {
    return new ApiError(
      504,
      StatusReason.Timeout,
      `Timeout: Too large resource version: ${requested}, current: ${current}`,
      { retryAfterSeconds: 1, causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] },
      { 'Retry-After': '1' },
    );
  },
};

/**
 * Appends causes to a list. A list of causes can be as long as a body allows (one per bad item), and spreading more
 * than about 120,000 items into `push(...)` overflows the stack.
 */
export function appendCauses(causes: StatusCause[], more: readonly StatusCause[]): void {
  for (const c of more) causes.push(c);
}
