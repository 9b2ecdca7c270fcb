import type { Context } from 'koa';
import { parseRequestInfo, type RequestInfo } from '../request/request-info.js';

const parsedKey = Symbol('kapi.parsedRequest');

interface ParsedRequest {
  info: RequestInfo;
  query: URLSearchParams;
}

/** The request's query and RequestInfo, parsed once per request for every filter that needs them (kube's WithRequestInfo). */
function parsedRequest(ctx: Context): ParsedRequest {
  const state = ctx.state as { [parsedKey]?: ParsedRequest };
  if (!state[parsedKey]) {
    const query = new URLSearchParams(ctx.querystring);
    state[parsedKey] = { info: parseRequestInfo(ctx.method, ctx.path, query), query };
  }
  return state[parsedKey];
}

export function requestInfoOf(ctx: Context): RequestInfo {
  return parsedRequest(ctx).info;
}

export function requestQueryOf(ctx: Context): URLSearchParams {
  return parsedRequest(ctx).query;
}
