import type { RequestInfo } from './request-info.js';

/** The subresources kube-apiserver treats as long-running (its BasicLongRunningRequestCheck). */
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/**
 * Whether kube treats the request as long-running: watches, proxies and the streaming subresources. They have no
 * request deadline, and audit sends their ResponseStarted stage as an event of its own.
 */
export function isLongRunning(info: RequestInfo): boolean {
  return info.verb === 'watch' || info.verb === 'proxy' || (info.isResourceRequest && longRunningSubresources.has(info.subresource));
}
