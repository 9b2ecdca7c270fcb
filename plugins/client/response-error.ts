import { ApiError } from '../../core/contracts/api-error.js';
import type { Status } from '../../core/contracts/status.js';

/** The ApiError of a server's non-2xx answer: its Status when it sent one, else the code and the body's text. */
export function responseError(code: number, body: Buffer): ApiError {
  const status = parseStatus(body);
  if (status) return statusError(status);
  return new ApiError(code, '', body.toString('utf8').trim() || `the server answered ${code}`);
}

/** The ApiError carrying a Status the server sent (an error answer, or a watch's ERROR event). */
export function statusError(status: Status): ApiError {
  return new ApiError(status.code, status.reason ?? '', status.message ?? '', status.details);
}

function parseStatus(body: Buffer): Status | undefined {
  try {
    const value = JSON.parse(body.toString('utf8')) as Partial<Status> | null;
    return value?.kind === 'Status' && typeof value.code === 'number' ? (value as Status) : undefined;
  } catch {
    return undefined;
  }
}
