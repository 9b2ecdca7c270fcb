import type { RequestScope } from './request-scope.js';
import type { KubeObject } from '../registry/resource-type.js';
import type { StoreEvent } from '../store/resource-store.js';
import { ApiError, errors } from '../errors/api-error.js';
import { parseIntParam } from './query-options.js';
import { parseResourceVersion, selectorFilter } from './read-options.js';
import { toVersion } from './respond.js';
import { toTable } from '../table/table-convertor.js';

/** kube-apiserver's default watch length is minRequestTimeout (1800s). */
const defaultWatchSeconds = 1800;

type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'ERROR';

/**
 * A watch: a chunked stream of `{"type","object"}` JSON lines. Without a resourceVersion (or with "0") it starts
 * with ADDED events for the current state; with one, it streams every change after it. Selector filters turn
 * MODIFIED into ADDED/DELETED when an object enters or leaves the selection, as kube does.
 */
export async function handleWatch(scope: RequestScope): Promise<void> {
  const { ctx, query, info } = scope;
  const rv = parseResourceVersion(query.get('resourceVersion'));
  const timeoutSeconds = parseIntParam(query, 'timeoutSeconds') ?? defaultWatchSeconds;
  const selected = selectorFilter(scope);
  const nameOnly = info.name;
  const matches = (obj: KubeObject | undefined): boolean =>
    obj !== undefined && (!nameOnly || obj.metadata?.name === nameOnly) && (!selected || selected(obj));

  let startRevision = rv ?? 0;
  const initial: KubeObject[] = [];
  if (!startRevision) {
    const list = await scope.store.list(info.namespace, { filter: matches });
    initial.push(...list.items);
    startRevision = Number(list.resourceVersion);
  }

  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(200, { 'Content-Type': scope.negotiated.contentType.startsWith('application/json') ? 'application/json' : scope.negotiated.contentType, 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();

  const encode = (type: WatchEventType, obj: unknown): string => {
    let object = obj;
    if (type !== 'ERROR') {
      toVersion(obj as KubeObject, scope);
      if (scope.negotiated.as === 'Table') {
        object = toTable([obj as KubeObject], scope.versionDef.printerColumns, { includeObject: 'Metadata' });
      }
    }
    return JSON.stringify({ type, object }) + '\n';
  };

  await new Promise<void>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      watch.cancel();
      res.end();
      resolve();
    };
    const timer = setTimeout(finish, timeoutSeconds * 1000);
    res.on('close', finish);
    for (const obj of initial) res.write(encode('ADDED', obj));
    const watch = scope.store.watch(info.namespace, startRevision, {
      onEvents: (events) => {
        if (done) return;
        let chunk = '';
        for (const e of events) {
          const type = translate(e, matches);
          if (type) chunk += encode(type, e.object);
        }
        if (chunk) res.write(chunk);
      },
      onError: (err) => {
        if (done) return;
        const status = err instanceof ApiError ? watchErrorStatus(err, startRevision) : errors.internal(err.message).status;
        res.write(encode('ERROR', status));
        finish();
      },
    });
  });
}

function translate(e: StoreEvent, matches: (obj: KubeObject | undefined) => boolean): WatchEventType | undefined {
  if (e.type === 'DELETED') return matches(e.object) ? 'DELETED' : undefined;
  const now = matches(e.object);
  if (e.type === 'ADDED') return now ? 'ADDED' : undefined;
  const before = matches(e.previous);
  if (now && before) return 'MODIFIED';
  if (now) return 'ADDED';
  if (before) return 'DELETED';
  return undefined;
}

/** A watch from a compacted revision ends with 410 Expired "too old resource version", as kube sends it. */
function watchErrorStatus(err: ApiError, startRevision: number) {
  if (err.code === 410) return errors.expired(`too old resource version: ${startRevision}`).status;
  return err.status;
}
