// A transparent TCP proxy on loopback, for tests that cut client connections (TLS passes through untouched).
import net from 'node:net';

export interface TcpProxy {
  /** Port the proxy listens on (127.0.0.1). */
  port: number;
  /** `https://127.0.0.1:PORT`. */
  url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Destroys every current connection (both the client's and the upstream socket); returns how many were cut. */
  cutAll(): number;
  /** While blocked, new connections are accepted and immediately destroyed (the upstream is unreachable). */
  setBlocked(blocked: boolean): void;
  /** While stalled, requests still reach the upstream but its answers are held back (released when unstalled). */
  setStalled(stalled: boolean): void;
  close(): Promise<void>;
}

/** Starts a proxy that pipes every connection to `targetHost:targetPort`. */
export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let blocked = false;
  let stalled = false;
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted++;
    if (blocked) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const teardown = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', teardown);
    upstream.on('error', teardown);
    client.on('close', teardown);
    upstream.on('close', teardown);
    client.pipe(upstream);
    if (!stalled) upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  const cutAll = () => {
    const n = pairs.size;
    for (const pair of [...pairs]) {
      pairs.delete(pair);
      pair[0].destroy();
      pair[1].destroy();
    }
    return n;
  };
  return {
    port,
    url: `https://127.0.0.1:${port}`,
    get accepted() {
      return accepted;
    },
    cutAll,
    setBlocked(b) {
      blocked = b;
    },
    setStalled(s) {
      if (s === stalled) return;
      stalled = s;
      for (const [client, upstream] of pairs) {
        if (s) {
          upstream.unpipe(client);
          upstream.pause();
        } else {
          upstream.pipe(client);
        }
      }
    },
    close() {
      cutAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
