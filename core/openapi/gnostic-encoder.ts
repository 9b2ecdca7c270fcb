import { Worker } from 'node:worker_threads';
import { turnShare } from '../../lib/async/turn-share.js';

/** One part of a document's JSON; the worker encodes the document once it has the last. */
export interface GnosticRequest {
  id: number;
  kind: 'v2' | 'v3';
  part: string;
  last: boolean;
}

export interface GnosticReply {
  id: number;
  bytes?: Uint8Array;
  error?: string;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();

/**
 * The OpenAPI JSON (in parts, their concatenation) as gnostic protobuf (`openapi_v2.Document` for Swagger,
 * `openapi_v3.Document` for a group-version), encoded on a worker thread (gnostic-worker.ts), started on first use and
 * not keeping the process alive. The parts go to the worker one by one, each copied on its share of a turn of the event
 * loop: joining, or copying in one message, the tens of MiB of the Swagger document of thousands of CRDs would hold the
 * loop for over 100 ms.
 */
export async function encodeGnostic(kind: 'v2' | 'v3', parts: readonly string[]): Promise<Buffer> {
  const w = (worker ??= startWorker());
  const id = nextId++;
  const encoded = new Promise<Buffer>((resolve, reject) => pending.set(id, { resolve, reject }));
  const last = Math.max(parts.length - 1, 0);
  for (let i = 0; i <= last; i++) {
    if (i > 0) await turnShare();
    w.postMessage({ id, kind, part: parts[i] ?? '', last: i === last } satisfies GnosticRequest);
  }
  return encoded;
}

function startWorker(): Worker {
  const w = new Worker(new URL('./gnostic-worker.js', import.meta.url));
  w.on('message', ({ id, bytes, error }: GnosticReply) => {
    const p = pending.get(id);
    pending.delete(id);
    if (bytes) p?.resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    else p?.reject(new Error(`encoding OpenAPI as protobuf: ${error}`));
  });
  const fail = (err: Error) => {
    worker = undefined; // the next document starts a new one
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the OpenAPI protobuf worker exited (code ${code})`)));
  w.unref(); // after the listeners: adding a 'message' listener refs the worker's port again
  return w;
}
