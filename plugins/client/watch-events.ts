import type { IncomingMessage } from 'node:http';
import type { Status } from '../../core/contracts/status.js';
import { statusError } from './response-error.js';

/** One event of a watch; ERROR events are thrown as an ApiError instead (a 410 Gone one means: list again). */
export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  object: T;
}

/**
 * The events of a watch response (JSON, one event a line), until the server ends it; the response is destroyed when
 * the loop over them stops early.
 */
export async function* watchEvents<T>(res: IncomingMessage): AsyncGenerator<WatchEvent<T>> {
  let pending = '';
  res.setEncoding('utf8'); // decodes characters split across chunks
  try {
    for await (const chunk of res) {
      pending += chunk as string;
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, end).trim();
        pending = pending.slice(end + 1);
        if (line) yield parseEvent<T>(line);
      }
    }
    if (pending.trim()) yield parseEvent<T>(pending.trim());
  } finally {
    res.destroy();
  }
}

function parseEvent<T>(line: string): WatchEvent<T> {
  const event = JSON.parse(line) as { type: WatchEvent<T>['type'] | 'ERROR'; object: unknown };
  if (event.type === 'ERROR') throw statusError(event.object as Status);
  return event as WatchEvent<T>;
}
