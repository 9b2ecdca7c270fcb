import { Worker } from 'node:worker_threads';

export interface GnosticRequest {
  id: number;
  kind: 'v2' | 'v3';
  json: string;
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
 * The OpenAPI JSON as gnostic protobuf (`openapi_v2.Document` for Swagger, `openapi_v3.Document` for a group-version),
 * encoded on a worker thread (gnostic-worker.ts), started on first use and not keeping the process alive.
 */
export function encodeGnostic(kind: 'v2' | 'v3', json: string): Promise<Buffer> {
  const w = (worker ??= startWorker());
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, kind, json } satisfies GnosticRequest);
  });
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
