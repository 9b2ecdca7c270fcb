/** The Kubernetes `Status` object (meta/v1) as served for failures and for some successful deletes. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** The reasons kube-apiserver uses (k8s.io/apimachinery/pkg/apis/meta/v1 StatusReason). */
export const StatusReason = {
  BadRequest: 'BadRequest',
  Unauthorized: 'Unauthorized',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  MethodNotAllowed: 'MethodNotAllowed',
  NotAcceptable: 'NotAcceptable',
  AlreadyExists: 'AlreadyExists',
  Conflict: 'Conflict',
  Gone: 'Gone',
  Expired: 'Expired',
  RequestEntityTooLarge: 'RequestEntityTooLarge',
  UnsupportedMediaType: 'UnsupportedMediaType',
  Invalid: 'Invalid',
  TooManyRequests: 'TooManyRequests',
  InternalError: 'InternalError',
  Timeout: 'Timeout',
  ServerTimeout: 'ServerTimeout',
  ServiceUnavailable: 'ServiceUnavailable',
} as const;
