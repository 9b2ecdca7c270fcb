import YAML from 'yaml';
import type { Context } from 'koa';
import type { KubeObject } from '../registry/resource-type.js';
import { apiVersionOf } from '../registry/resource-type.js';
import type { Negotiated } from '../codec/negotiation.js';
import type { RequestScope } from './request-scope.js';
import type { ListResult } from '../store/resource-store.js';
import { toTable, type TableColumns } from '../table/table-convertor.js';
import { errors } from '../errors/api-error.js';
import { compileSchema } from '../../schemas/structural-schema.js';

/**
 * The object as the addressed API version presents it: CRD versions convert with strategy None, and a custom
 * resource read from storage gets its schema's defaults (as kube applies them on read). Returns a new object and
 * leaves `obj` alone: objects from the watch cache are shared between requests.
 */
export function toVersion(obj: KubeObject, scope: Pick<RequestScope, 'rt' | 'version' | 'versionDef'>): KubeObject {
  const apiVersion = apiVersionOf(scope.rt.group, scope.version);
  const kind = scope.rt.names.kind;
  const schema = scope.rt.custom ? scope.versionDef.schema : undefined;
  const compiled = schema ? compileSchema(schema) : undefined;
  if (!compiled?.hasDefaults) return { ...obj, apiVersion, kind };
  const copy = structuredClone(obj);
  copy.apiVersion = apiVersion;
  copy.kind = kind;
  compiled.applyDefaults(copy);
  return copy;
}

/** Writes a body in the negotiated format. */
export function encodeBody(ctx: Context, negotiated: Pick<Negotiated, 'format' | 'contentType'>, code: number, body: unknown): void {
  ctx.status = code;
  // Set after the body: koa would otherwise guess a type from the string. set() skips koa's mime lookup.
  ctx.body = negotiated.format === 'yaml' ? YAML.stringify(body) : JSON.stringify(body);
  ctx.set('Content-Type', negotiated.contentType);
}

/** The Table rows' `includeObject` query parameter (absent or empty: Metadata). */
export function includeObject(scope: Pick<RequestScope, 'query'>): 'None' | 'Metadata' | 'Object' {
  const v = scope.query.get('includeObject') || 'Metadata';
  if (v !== 'None' && v !== 'Metadata' && v !== 'Object') {
    throw errors.badRequest(`Unable to convert to Table as requested: includeObject: Unsupported value: ${JSON.stringify(v)}: supported values: "Metadata", "None", "Object"`);
  }
  return v;
}

/** How this version renders as a Table: a built-in printer, the CRD's printer columns, or kube's default. */
export function tableColumns(scope: Pick<RequestScope, 'versionDef'>): TableColumns {
  return scope.versionDef.tablePrinter ?? scope.versionDef.printerColumns;
}

export function partialMetadata(obj: KubeObject, metaVersion: string): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${metaVersion}`, metadata: obj.metadata };
}

/** The meta.k8s.io version (v1 or v1beta1) of a Table / PartialObjectMetadata representation. */
export function metaVersionOf(n: Negotiated): 'v1' | 'v1beta1' {
  return n.metaVersion ?? 'v1';
}

/** Responds with one object in the requested version and representation. */
export function respondObject(scope: RequestScope, code: number, obj: KubeObject): void {
  const n = scope.negotiated;
  const versioned = toVersion(obj, scope);
  let body: unknown = versioned;
  if (n.as === 'Table') {
    body = toTable([versioned], tableColumns(scope), { includeObject: includeObject(scope), metaVersion: metaVersionOf(n) });
  } else if (n.as === 'PartialObjectMetadata') {
    body = partialMetadata(versioned, metaVersionOf(n));
  }
  encodeBody(scope.ctx, n, code, body);
}

/** Responds with a list (or its Table / PartialObjectMetadataList form). */
export function respondList(scope: RequestScope, list: ListResult): void {
  const n = scope.negotiated;
  const listMeta: Record<string, unknown> = { resourceVersion: list.resourceVersion };
  if (list.continueToken) listMeta['continue'] = list.continueToken;
  if (list.remainingItemCount !== undefined) listMeta['remainingItemCount'] = list.remainingItemCount;
  const items = list.items.map((o) => toVersion(o, scope));
  let body: unknown;
  if (n.as === 'Table') {
    body = toTable(items, tableColumns(scope), { includeObject: includeObject(scope), listMeta, metaVersion: metaVersionOf(n) });
  } else if (n.as === 'PartialObjectMetadata') {
    const v = metaVersionOf(n);
    body = { kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${v}`, metadata: listMeta, items: items.map((o) => partialMetadata(o, v)) };
  } else {
    body = { apiVersion: apiVersionOf(scope.rt.group, scope.version), kind: scope.rt.names.listKind, metadata: listMeta, items };
  }
  encodeBody(scope.ctx, n, 200, body);
}
