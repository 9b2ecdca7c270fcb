import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Etcd3, IOptions } from 'etcd3';

// The etcd3 client (gRPC, protobuf definitions) costs ~150 ms and ~30 MB to load: only servers on etcd load it.
const require = createRequire(import.meta.url);

/** TLS to etcd: the CA that signed etcd's serving certificate, and a client certificate and key when etcd wants one. */
export interface EtcdTlsFiles {
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

export interface EtcdConnectionOptions {
  /** Client URLs of the etcd members, e.g. `http://127.0.0.1:2379` (all http or all https). */
  endpoints: string[];
  tls?: EtcdTlsFiles;
}

/**
 * An etcd3 client for the endpoints. Its retry and circuit-breaker policies are replaced by no-ops: EtcdCaller retries
 * what is safe to retry, within each call's deadline.
 */
export function connectEtcd(opts: EtcdConnectionOptions): Etcd3 {
  if (opts.endpoints.length === 0) throw new TypeError('etcd storage needs at least one endpoint');
  const { noop } = require('cockatiel') as typeof import('cockatiel');
  const etcd3 = require('etcd3') as typeof import('etcd3');
  const options: IOptions = {
    hosts: opts.endpoints,
    faultHandling: { global: noop, host: () => noop },
    grpcOptions: {
      // Lists of many objects exceed gRPC's default 4 MiB; kube-apiserver's etcd client lifts the limit too.
      'grpc.max_receive_message_length': -1,
      // Notice a member that vanished without closing its connections (the watch stream would wait forever).
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      // Reconnect to a restarted member within a second or two, not after gRPC's default backoff (up to 2 minutes).
      'grpc.initial_reconnect_backoff_ms': 200,
      'grpc.max_reconnect_backoff_ms': 2_000,
    },
  };
  const tls = opts.tls;
  if (tls && (tls.caFile || tls.certFile || tls.keyFile)) {
    if (Boolean(tls.certFile) !== Boolean(tls.keyFile)) throw new TypeError('etcd TLS needs both a client certificate and its key');
    options.credentials = {
      // Without a CA file gRPC verifies etcd's certificate against the system's roots.
      rootCertificate: tls.caFile ? readFileSync(tls.caFile) : (undefined as unknown as Buffer),
      ...(tls.certFile ? { certChain: readFileSync(tls.certFile), privateKey: readFileSync(tls.keyFile!) } : {}),
    };
  }
  return new etcd3.Etcd3(options);
}
