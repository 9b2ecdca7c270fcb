import type { Context } from 'koa';
import { parseRequestInfo, type RequestInfo } from '../request/request-info.js';

const requestInfoKey = Symbol('kapi.requestInfo');

/** The request's RequestInfo, parsed once per request for every filter that needs it (kube's WithRequestInfo). */
export function requestInfoOf(ctx: Context): RequestInfo {
  const state = ctx.state as { [requestInfoKey]?: RequestInfo };
  return (state[requestInfoKey] ??= parseRequestInfo(ctx.method, ctx.path, new URLSearchParams(ctx.querystring)));
}
