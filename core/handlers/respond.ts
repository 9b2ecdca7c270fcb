import type { Context } from 'koa';
import type { KubeObject } from '../contracts/resource-type.js';
import { apiVersionOf } from '../contracts/resource-type.js';
import type { Negotiated } from '../codec/negotiated.js';
import type { RequestScope, ResourceScope } from './request-scope.js';
import type { ListResult } from '../store/resource-store.js';
import { TableRenderer, toTable, type IncludeObject, type TableColumns, type TableOptions } from '../table/table-convertor.js';
import { errors } from '../contracts/api-error.js';
import type { ListObject } from '../contracts/codec.js';
import { pacedBody, pacedListItems } from './paced-body.js';
import { mapInSlices } from './event-loop-slices.js';
import type { MaybePromise } from '../contracts/object-converter.js';
import { auditResponseObject } from '../audit/request-audit.js';
import { convertsSynchronously, listToRequestVersion, toRequestVersion, toRequestVersionToRead } from '../conversion/versioned-objects.js';

/** A stored object as the addressed API version presents it (see core/conversion/versioned-objects.ts). */
export function toVersion(obj: KubeObject, scope: Pick<RequestScope, 'rt' | 'version'>): MaybePromise<KubeObject> {
  return toRequestVersion(scope.rt, scope.version, obj);
}

/** Writes a body with the negotiated codec. */
export function encodeBody(ctx: Context, negotiated: Pick<Negotiated, 'codec' | 'contentType'>, code: number, body: object): void {
  ctx.status = code;
  auditResponseObject(ctx, body);
  // Set before the body, with set(): koa guesses a type (a mime lookup) only for a body without one.
  ctx.set('Content-Type', negotiated.contentType);
  ctx.body = negotiated.codec.encode(body);
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

/** Responds with a list (or its Table / PartialObjectMetadataList form); synchronous as respondObject is, but for a paced list. */
export function respondList(scope: ResourceScope, list: ListResult): void | Promise<void> {
  const include = scope.negotiated.as === 'Table' ? includeObject(scope) : 'Metadata';
  if (list.items.length >= pacedListItems && scope.negotiated.codec.encodeListPieces) return writePacedList(scope, list, include);
  const items = listToRequestVersion(scope.rt, scope.version, list.items);
  if (items instanceof Promise) return items.then((converted) => writeList(scope, list, converted, include));
  writeList(scope, list, items, include);
}

function writeList(scope: ResourceScope, list: ListResult, items: KubeObject[], include: IncludeObject): void {
  const n = scope.negotiated;
  if (n.as === 'Table') {
    encodeBody(scope.ctx, n, 200, toTable(items, tableColumns(scope), tableOptions(scope, list, include)));
    return;
  }
  encodeBody(scope.ctx, n, 200, listObject(scope, list, items.map(listItemForm(n))));
}

/**
 * A list of 500 items or more, prepared and written in slices of ~10 ms with other requests served in between: each
 * item is converted to the request's version and made a Table row or mapped to its representation one by one (a
 * conversion webhook, if any, still converts them in one call), then the codec writes the list piece by piece.
 */
async function writePacedList(scope: ResourceScope, list: ListResult, include: IncludeObject): Promise<void> {
  const n = scope.negotiated;
  let pieces: Iterable<Buffer | string>;
  if (n.as === 'Table') {
    const renderer = new TableRenderer(tableColumns(scope), tableOptions(scope, list, include));
    const rows = await convertInSlices(scope, list.items, (o) => renderer.row(o));
    const table = renderer.table(rows);
    auditResponseObject(scope.ctx, table);
    pieces = n.codec.encodeListPieces!(table as unknown as ListObject, 'rows');
  } else {
    const items = await convertInSlices(scope, list.items, listItemForm(n));
    const listed = listObject(scope, list, items);
    auditResponseObject(scope.ctx, listed);
    pieces = n.codec.encodeListPieces!(listed);
  }
  scope.ctx.status = 200;
  scope.ctx.body = pacedBody(pieces);
  scope.ctx.set('Content-Type', n.contentType);
}

/** `items` in the request's version (shared, not copied, where nothing changes), each then made into what `then` gives, a slice at a time. */
async function convertInSlices<T>(scope: ResourceScope, items: readonly KubeObject[], then: (obj: KubeObject) => T): Promise<T[]> {
  if (convertsSynchronously(scope.rt)) return mapInSlices(items, (o) => then(toRequestVersionToRead(scope.rt, scope.version, o) as KubeObject));
  return mapInSlices(await listToRequestVersion(scope.rt, scope.version, items), then);
}

function tableOptions(scope: ResourceScope, list: ListResult, include: IncludeObject): TableOptions {
  return { includeObject: include, listMeta: listMetaOf(list), metaVersion: metaVersionOf(scope.negotiated) };
}

/** What a list item becomes in the negotiated representation: its PartialObjectMetadata, or itself. */
function listItemForm(n: Negotiated): (obj: KubeObject) => object {
  if (n.as !== 'PartialObjectMetadata') return (obj) => obj;
  const v = metaVersionOf(n);
  return (obj) => partialMetadata(obj, v);
}

/** The list object around items already in the negotiated representation. */
function listObject(scope: ResourceScope, list: ListResult, items: object[]): ListObject {
  const n = scope.negotiated;
  const metadata = listMetaOf(list);
  if (n.as === 'PartialObjectMetadata') return { kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${metaVersionOf(n)}`, metadata, items };
  return { apiVersion: apiVersionOf(scope.rt.group, scope.version), kind: scope.rt.names.listKind, metadata, items };
}

function listMetaOf(list: ListResult): Record<string, unknown> {
  const listMeta: Record<string, unknown> = { resourceVersion: list.resourceVersion };
  if (list.continueToken) listMeta['continue'] = list.continueToken;
  if (list.remainingItemCount !== undefined) listMeta['remainingItemCount'] = list.remainingItemCount;
  return listMeta;
}
