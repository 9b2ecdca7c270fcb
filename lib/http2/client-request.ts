import { AsyncResource } from 'node:async_hooks';
import type http2 from 'node:http2';
import type { OutgoingHttpHeaders } from 'node:http';

const nodeBind = AsyncResource.prototype.bind;

/** AsyncResource#bind without the deprecated `asyncResource` property on the bound function (DEP0172). */
function bindInScope(this: AsyncResource, fn: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  const resource = this;
  return function (this: unknown, ...args: unknown[]) {
    return resource.runInAsyncScope(fn, this, ...args);
  };
}

/**
 * `session.request(headers, options)` (the aggregator's proxy, the etcd client's gRPC calls), minus a cost Node 20
 * adds to every call: the request binds its start to an AsyncResource, and AsyncResource#bind defines the deprecated
 * `asyncResource` property with two util.deprecate wrappers, each re-prototyped (Object.setPrototypeOf): tens of µs
 * and garbage per request (nodejs/node#58218; Node 24 dropped the re-prototyping, later versions the property). The
 * binding itself (the async context the stream starts in) is kept; only the property, which nothing reads, is left
 * out, and only while this synchronous call runs.
 */
export function requestStream(session: http2.ClientHttp2Session, headers: OutgoingHttpHeaders, options?: http2.ClientSessionRequestOptions): http2.ClientHttp2Stream {
  AsyncResource.prototype.bind = bindInScope as typeof nodeBind;
  try {
    return session.request(headers, options);
  } finally {
    AsyncResource.prototype.bind = nodeBind;
  }
}
