/*
 * The etcd v3 messages kapi sends and reads (etcdserverpb in rpc.proto, mvccpb in kv.proto), with etcd's field numbers.
 * Only the fields kapi uses are written; every field etcd may send back is read (unknown ones are skipped). Keys and
 * values are views of the response's bytes.
 */
import { ProtoReader, ProtoWriter } from './proto-wire.js';

export interface KeyValue {
  key: Buffer;
  createRevision: number;
  modRevision: number;
  /** Writes since the key was created (1 after the create). */
  version: number;
  value: Buffer;
}

export interface ResponseHeader {
  /** The store revision when the request was served. */
  revision: number;
}

export interface RangeRequest {
  key: Buffer;
  rangeEnd?: Buffer;
  limit?: number;
  /** 0 or absent: the latest revision. */
  revision?: number;
  keysOnly?: boolean;
  countOnly?: boolean;
}

export interface RangeResponse {
  header: ResponseHeader;
  kvs: KeyValue[];
  more: boolean;
  count: number;
}

export interface DeleteRangeRequest {
  key: Buffer;
  prevKv?: boolean;
}

export interface DeleteRangeResponse {
  header: ResponseHeader;
  deleted: number;
  prevKvs: KeyValue[];
}

/** etcd's Compare: the key's version, create revision or mod revision, equal to or greater than `value`. */
export interface Compare {
  key: Buffer;
  target: 'version' | 'create' | 'mod';
  result: 'equal' | 'greater';
  value: number;
}

export type RequestOp = { range: RangeRequest } | { put: { key: Buffer; value: Uint8Array } } | { deleteRange: DeleteRangeRequest };

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}

/** One operation's answer; only the kinds kapi's transactions contain are kept. */
export interface ResponseOp {
  range?: RangeResponse;
  deleteRange?: DeleteRangeResponse;
}

export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: ResponseOp[];
}

export interface WatchCreateRequest {
  key: Buffer;
  rangeEnd?: Buffer;
  startRevision: number;
  prevKv?: boolean;
}

export interface WatchEvent {
  type: 'PUT' | 'DELETE';
  kv: KeyValue;
  prevKv?: KeyValue;
}

export interface WatchResponse {
  header: ResponseHeader;
  watchId: number;
  created: boolean;
  canceled: boolean;
  /** Set when a watch was cancelled because its start revision is compacted: etcd's compacted revision. */
  compactRevision: number;
  cancelReason: string;
  events: WatchEvent[];
}

// Numbers of Compare.CompareTarget and Compare.CompareResult.
const compareTarget = { version: 0, create: 1, mod: 2 } as const;
const compareResult = { equal: 0, greater: 1 } as const;
// The Compare field holding the compared number, per target (the target_union oneof).
const compareField = { version: 4, create: 5, mod: 6 } as const;

export function encodeRange(r: RangeRequest): ProtoWriter {
  return new ProtoWriter(r.key.length + (r.rangeEnd?.length ?? 0) + 24)
    .bytes(1, r.key)
    .bytes(2, r.rangeEnd)
    .uint(3, r.limit ?? 0)
    .uint(4, r.revision ?? 0)
    .bool(8, r.keysOnly)
    .bool(9, r.countOnly);
}

function encodeCompare(c: Compare): ProtoWriter {
  return (
    new ProtoWriter(c.key.length + 16)
      .uint(1, compareResult[c.result])
      .uint(2, compareTarget[c.target])
      .bytes(3, c.key)
      // A oneof member is written even when 0: "create revision equal to 0" is how etcd tests that a key is absent.
      .oneofUint(compareField[c.target], c.value)
  );
}

function encodeOp(op: RequestOp): ProtoWriter {
  if ('range' in op) return new ProtoWriter(0).message(1, encodeRange(op.range));
  if ('put' in op) {
    const put = new ProtoWriter(op.put.key.length + op.put.value.length + 8).bytes(1, op.put.key).bytes(2, op.put.value);
    return new ProtoWriter(put.length + 4).message(2, put);
  }
  const del = new ProtoWriter(op.deleteRange.key.length + 8).bytes(1, op.deleteRange.key).bool(3, op.deleteRange.prevKv);
  return new ProtoWriter(del.length + 4).message(3, del);
}

export function encodeTxn(t: TxnRequest): ProtoWriter {
  const w = new ProtoWriter(256);
  for (const c of t.compare) w.message(1, encodeCompare(c));
  for (const op of t.success) w.message(2, encodeOp(op));
  for (const op of t.failure) w.message(3, encodeOp(op));
  return w;
}

export function encodeCompaction(revision: number): ProtoWriter {
  return new ProtoWriter(12).uint(1, revision);
}

export function encodeWatchCreate(c: WatchCreateRequest): ProtoWriter {
  const create = new ProtoWriter(c.key.length + (c.rangeEnd?.length ?? 0) + 16)
    .bytes(1, c.key)
    .bytes(2, c.rangeEnd)
    .uint(3, c.startRevision)
    .bool(6, c.prevKv);
  return new ProtoWriter(create.length + 4).message(1, create);
}

function decodeHeader(r: ProtoReader): ResponseHeader {
  let revision = 0;
  while (r.next()) {
    if (r.field === 3) revision = r.varint();
    else r.skip();
  }
  return { revision };
}

const noHeader: ResponseHeader = { revision: 0 };
const empty = Buffer.alloc(0);

export function decodeKeyValue(r: ProtoReader): KeyValue {
  const kv: KeyValue = { key: empty, createRevision: 0, modRevision: 0, version: 0, value: empty };
  while (r.next()) {
    switch (r.field) {
      case 1:
        kv.key = r.bytes();
        break;
      case 2:
        kv.createRevision = r.varint();
        break;
      case 3:
        kv.modRevision = r.varint();
        break;
      case 4:
        kv.version = r.varint();
        break;
      case 5:
        kv.value = r.bytes();
        break;
      default:
        r.skip();
    }
  }
  return kv;
}

export function decodeRangeResponse(r: ProtoReader): RangeResponse {
  const res: RangeResponse = { header: noHeader, kvs: [], more: false, count: 0 };
  while (r.next()) {
    switch (r.field) {
      case 1:
        res.header = decodeHeader(r.message());
        break;
      case 2:
        res.kvs.push(decodeKeyValue(r.message()));
        break;
      case 3:
        res.more = r.bool();
        break;
      case 4:
        res.count = r.varint();
        break;
      default:
        r.skip();
    }
  }
  return res;
}

function decodeDeleteRangeResponse(r: ProtoReader): DeleteRangeResponse {
  const res: DeleteRangeResponse = { header: noHeader, deleted: 0, prevKvs: [] };
  while (r.next()) {
    switch (r.field) {
      case 1:
        res.header = decodeHeader(r.message());
        break;
      case 2:
        res.deleted = r.varint();
        break;
      case 3:
        res.prevKvs.push(decodeKeyValue(r.message()));
        break;
      default:
        r.skip();
    }
  }
  return res;
}

function decodeResponseOp(r: ProtoReader): ResponseOp {
  const op: ResponseOp = {};
  while (r.next()) {
    if (r.field === 1) op.range = decodeRangeResponse(r.message());
    else if (r.field === 3) op.deleteRange = decodeDeleteRangeResponse(r.message());
    else r.skip();
  }
  return op;
}

export function decodeTxnResponse(r: ProtoReader): TxnResponse {
  const res: TxnResponse = { header: noHeader, succeeded: false, responses: [] };
  while (r.next()) {
    switch (r.field) {
      case 1:
        res.header = decodeHeader(r.message());
        break;
      case 2:
        res.succeeded = r.bool();
        break;
      case 3:
        res.responses.push(decodeResponseOp(r.message()));
        break;
      default:
        r.skip();
    }
  }
  return res;
}

/** Any response whose header is field 1 (PutResponse, CompactionResponse, …): its header. */
export function decodeHeaderOnly(r: ProtoReader): ResponseHeader {
  while (r.next()) {
    if (r.field === 1) return decodeHeader(r.message());
    r.skip();
  }
  return noHeader;
}

function decodeEvent(r: ProtoReader): WatchEvent {
  let type: WatchEvent['type'] = 'PUT';
  let kv: KeyValue | undefined;
  let prevKv: KeyValue | undefined;
  while (r.next()) {
    switch (r.field) {
      case 1:
        type = r.varint() === 1 ? 'DELETE' : 'PUT';
        break;
      case 2:
        kv = decodeKeyValue(r.message());
        break;
      case 3:
        prevKv = decodeKeyValue(r.message());
        break;
      default:
        r.skip();
    }
  }
  const event: WatchEvent = { type, kv: kv ?? decodeKeyValue(new ProtoReader(empty)) };
  if (prevKv) event.prevKv = prevKv;
  return event;
}

export function decodeWatchResponse(r: ProtoReader): WatchResponse {
  const res: WatchResponse = { header: noHeader, watchId: 0, created: false, canceled: false, compactRevision: 0, cancelReason: '', events: [] };
  while (r.next()) {
    switch (r.field) {
      case 1:
        res.header = decodeHeader(r.message());
        break;
      case 2:
        res.watchId = r.varint();
        break;
      case 3:
        res.created = r.bool();
        break;
      case 4:
        res.canceled = r.bool();
        break;
      case 5:
        res.compactRevision = r.varint();
        break;
      case 6:
        res.cancelReason = r.string();
        break;
      case 11:
        res.events.push(decodeEvent(r.message()));
        break;
      default:
        r.skip();
    }
  }
  return res;
}
