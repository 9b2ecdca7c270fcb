import type { Context } from 'koa';
import type { KubeObject } from '../contracts/resource-type.js';
import { apiVersionOf } from '../contracts/resource-type.js';
import type { Negotiated } from '../codec/negotiated.js';
import type { RequestScope, ResourceScope } from './request-scope.js';
import type { ListResult } from '../store/resource-store.js';
import { toTable, type IncludeObject, type TableColumns } from '../table/table-convertor.js';
import { errors } from '../contracts/api-error.js';
import type { ListObject } from '../contracts/codec.js';
import { pacedBody, pacedListItems } from './paced-body.js';
import type { MaybePromise } from '../conversion/object-converter.js';
import { listToRequestVersion, toRequestVersion } from '../conversion/versioned-objects.js';

/** A stored object as the addressed API version presents it (see core/conversion/versioned-objects.ts). */
export function toVersion(obj: KubeObject, scope: Pick<RequestScope, 'rt' | 'version'>): MaybePromise<KubeObject> {
  return toRequestVersion(scope.rt, scope.version, obj);
}

/** Writes a body with the negotiated codec. */
export function encodeBody(ctx: Context, negotiated: Pick<Negotiated, 'codec' | 'contentType'>, code: number, body: object): void {
  ctx.status = code;
  // Set after the body: koa would otherwise guess a type from the string. set() skips koa's mime lookup.
  ctx.body = negotiated.codec.encode(body);
  ctx.set('Content-Type', negotiated.contentType);
}

/** The Table rows' `includeObject` query parameter (absent or empty: Metadata). */
export function includeObject(scope: Pick<RequestScope, 'query'>): IncludeObject {
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

/**
 * Responds with one stored object in the requested version and representation. Synchronous unless the object needs a
 * conversion webhook: callers `return` the result rather than awaiting it, so strategy None costs no microtask.
 */
export function respondObject(scope: ResourceScope, code: number, obj: KubeObject): void | Promise<void> {
  const include = scope.negotiated.as === 'Table' ? includeObject(scope) : 'Metadata'; // a bad includeObject is a 400 before any conversion
  const versioned = toVersion(obj, scope);
  if (versioned instanceof Promise) return versioned.then((v) => writeObject(scope, code, v, include));
  writeObject(scope, code, versioned, include);
}

/** Responds with an object no conversion applies to (a storage subresource's own kind). */
export function respondUnconverted(scope: ResourceScope, code: number, obj: KubeObject): void {
  writeObject(scope, code, obj, scope.negotiated.as === 'Table' ? includeObject(scope) : 'Metadata');
}

function writeObject(scope: ResourceScope, code: number, versioned: KubeObject, include: IncludeObject): void {
  const n = scope.negotiated;
  let body: object = versioned;
  if (n.as === 'Table') {
    body = toTable([versioned], tableColumns(scope), { includeObject: include, metaVersion: metaVersionOf(n) });
  } else if (n.as === 'PartialObjectMetadata') {
    body = partialMetadata(versioned, metaVersionOf(n));
  }
  encodeBody(scope.ctx, n, code, body);
}

/** Responds with a list (or its Table / PartialObjectMetadataList form); synchronous as respondObject is. */
export function respondList(scope: ResourceScope, list: ListResult): void | Promise<void> {
  const include = scope.negotiated.as === 'Table' ? includeObject(scope) : 'Metadata';
  const items = listToRequestVersion(scope.rt, scope.version, list.items);
  if (items instanceof Promise) return items.then((converted) => writeList(scope, list, converted, include));
  writeList(scope, list, items, include);
}

function writeList(scope: ResourceScope, list: ListResult, items: KubeObject[], include: IncludeObject): void {
  const n = scope.negotiated;
  const listMeta: Record<string, unknown> = { resourceVersion: list.resourceVersion };
  if (list.continueToken) listMeta['continue'] = list.continueToken;
  if (list.remainingItemCount !== undefined) listMeta['remainingItemCount'] = list.remainingItemCount;
  let body: object;
  if (n.as === 'Table') {
    body = toTable(items, tableColumns(scope), { includeObject: include, listMeta, metaVersion: metaVersionOf(n) });
  } else if (n.as === 'PartialObjectMetadata') {
    const v = metaVersionOf(n);
    body = { kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${v}`, metadata: listMeta, items: items.map((o) => partialMetadata(o, v)) };
  } else {
    body = { apiVersion: apiVersionOf(scope.rt.group, scope.version), kind: scope.rt.names.listKind, metadata: listMeta, items };
  }
  if (items.length >= pacedListItems && n.codec.encodeListPieces && 'items' in body) {
    scope.ctx.status = 200;
    scope.ctx.body = pacedBody(n.codec.encodeListPieces(body as ListObject));
    scope.ctx.set('Content-Type', n.contentType);
    return;
  }
  encodeBody(scope.ctx, n, 200, body);
}
