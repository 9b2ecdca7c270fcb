import type { ServerHttp2Session } from 'node:http2';

/**
 * The server's HTTP/2 sessions (connections), so that close() ends them with their watches, and so that a session with
 * no open stream for the idle timeout is closed with a GOAWAY, as Go's http2 server does with kube's IdleTimeout. A
 * session's own inactivity timeout would not do: it also counts a quiet watch as inactive.
 */
export class Http2Sessions {
  private readonly open = new Set<ServerHttp2Session>();

  constructor(private readonly idleTimeoutMs: number) {}

  add(session: ServerHttp2Session): void {
    this.open.add(session);
    let streams = 0;
    let idle: NodeJS.Timeout | undefined;
    const startIdle = () => {
      idle = setTimeout(() => session.close(), this.idleTimeoutMs);
    };
    session.on('stream', (stream) => {
      streams++;
      clearTimeout(idle);
      stream.once('close', () => {
        if (--streams === 0 && !session.closed) startIdle();
      });
    });
    session.once('close', () => {
      clearTimeout(idle);
      this.open.delete(session);
    });
    startIdle();
  }

  /** Asks every session to end (a GOAWAY: no new streams, the open ones finish), as Go's Server.Shutdown does. */
  closeAll(): void {
    for (const session of this.open) session.close();
  }

  /** Ends every session at once (a GOAWAY, then the connection closes), with the streams still open on it. */
  destroyAll(): void {
    for (const session of this.open) session.destroy();
  }
}
