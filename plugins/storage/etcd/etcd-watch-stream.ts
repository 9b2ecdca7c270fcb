import type { Etcd3, IEvent, IWatchCreateRequest, IWatchResponse } from 'etcd3';

export interface EtcdWatchHandlers {
  /** etcd accepted the watch. */
  onCreated?(): void;
  /** etcd's events of one response: one or more whole revisions, in order. Progress responses are not passed on. */
  onEvents(events: IEvent[]): void;
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
  client: Etcd3,
  request: IWatchCreateRequest,
  handlers: EtcdWatchHandlers,
  createTimeoutMs: number,
): EtcdWatchHandle {
  let done = false;
  let stream: Awaited<ReturnType<Etcd3['watchClient']['watch']>> | undefined;
  const finish = (err?: Error, compactRevision?: number) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    stream?.cancel();
    if (err) handlers.onEnd(err, compactRevision);
  };
  const timer = setTimeout(() => finish(new Error(`etcd did not accept the watch within ${createTimeoutMs} ms`)), createTimeoutMs);
  client.watchClient.watch().then(
    (s) => {
      // The etcd3 client's own 'error' listener resets every connection to the member on any stream error, including
      // the CANCELLED of our own cancel(); that would drop the connection other calls share. Listen ourselves instead.
      (s as unknown as NodeJS.EventEmitter).removeAllListeners('error'); // a gRPC ClientDuplexStream at run time
      s.on('error', (err: Error) => finish(err));
      s.on('end', () => finish(new Error('etcd ended the watch stream')));
      if (done) {
        s.cancel();
        return;
      }
      stream = s;
      s.on('data', (res: IWatchResponse) => {
        if (done) return;
        if (res.canceled) {
          const compacted = Number(res.compact_revision);
          if (compacted > 0) finish(new Error(`etcd watch start revision has been compacted (${compacted})`), compacted);
          else finish(new Error(`etcd cancelled the watch: ${res.cancel_reason || 'no reason given'}`));
          return;
        }
        if (res.created) {
          clearTimeout(timer);
          handlers.onCreated?.();
        }
        if (res.events.length > 0) handlers.onEvents(res.events);
      });
      s.write({ create_request: request });
    },
    (err: Error) => finish(err),
  );
  return { cancel: () => finish() };
}
