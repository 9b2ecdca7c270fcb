import type { EtcdClient } from './etcd-client.js';
import type { WatchCreateRequest, WatchEvent } from './grpc/etcd-messages.js';

export interface EtcdWatchHandlers {
  /** etcd accepted the watch. */
  onCreated?(): void;
  /** etcd's events of one response: one or more whole revisions, in order. Progress responses are not passed on. */
  onEvents(events: WatchEvent[]): void;
  /**
   * The watch ended without being cancelled: `compactRevision` is set when its start revision has been compacted
   * (etcd's compacted revision), otherwise the stream failed or etcd refused the watch. Called at most once.
   */
  onEnd(err: Error, compactRevision?: number): void;
}

export interface EtcdWatchHandle {
  cancel(): void;
}

/**
 * One etcd watcher on a gRPC stream of its own (so ending it is ending the stream, with no watch-id bookkeeping).
 * `createTimeoutMs` bounds the wait for etcd to accept it.
 */
export function openEtcdWatch(
  client: EtcdClient,
  request: WatchCreateRequest,
  handlers: EtcdWatchHandlers,
  createTimeoutMs: number,
): EtcdWatchHandle {
  let done = false;
  const finish = (err?: Error, compactRevision?: number) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    stream.cancel();
    if (err) handlers.onEnd(err, compactRevision);
  };
  const timer = setTimeout(() => finish(new Error(`etcd did not accept the watch within ${createTimeoutMs} ms`)), createTimeoutMs);
  const stream = client.watch(request, {
    onResponse: (res) => {
      if (done) return;
      if (res.canceled) {
        if (res.compactRevision > 0) finish(new Error(`etcd watch start revision has been compacted (${res.compactRevision})`), res.compactRevision);
        else finish(new Error(`etcd cancelled the watch: ${res.cancelReason || 'no reason given'}`));
        return;
      }
      if (res.created) {
        clearTimeout(timer);
        handlers.onCreated?.();
      }
      if (res.events.length > 0) handlers.onEvents(res.events);
    },
    onEnd: (err) => finish(err),
  });
  return { cancel: () => finish() };
}
