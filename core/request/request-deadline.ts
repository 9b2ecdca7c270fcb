import { errors } from '../contracts/api-error.js';
import { parseGoDurationOrError } from '../../lib/go/duration.js';
import { isLongRunning } from './long-running.js';
import type { RequestInfo } from './request-info.js';

/** kube-apiserver's `--request-timeout` default: the longest a request that is not long-running may take. */
export const requestTimeoutMs = 60_000;

/**
 * kube's WithRequestDeadline: how long a request that is not long-running may take, in ms (undefined for a long-running
 * one): its `timeout` query parameter when that is a positive Go duration below `--request-timeout`, else
 * `--request-timeout`. A malformed `timeout` is a 400 with Go's parse error, before the request is authenticated.
 */
export function requestDeadlineMs(info: RequestInfo, query: URLSearchParams): number | undefined {
  if (isLongRunning(info)) return undefined;
  const asked = query.get('timeout');
  if (!asked) return requestTimeoutMs;
  const ns = parseGoDurationOrError(asked);
  if (typeof ns !== 'bigint') throw errors.badRequest(`invalid timeout specified in the request URL - ${ns.error}`);
  return ns > 0n && ns < BigInt(requestTimeoutMs) * 1_000_000n ? Number(ns / 1_000_000n) : requestTimeoutMs;
}
