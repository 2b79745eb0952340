import { createServer, Server, Socket, connect } from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

/**
 * A TCP proxy on a loopback port that a test controls, to put a fault between the service and a server:
 * - `forward`: pipes bytes both ways;
 * - `refuse`: closes every connection, open or new (the server went away, or restarted);
 * - `blackhole`: keeps every connection open, accepts new ones, and forwards nothing in either direction
 *   (a peer that stopped answering: a dead host, a partition), which only timeouts can detect.
 * Going back to `forward` serves new connections; connections black-holed before stay silent until closed, as
 * connections to a peer that died without a word do, so the client must notice and drop them itself.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly pairs = new Set<{ client: Socket; upstream?: Socket }>();
  private currentMode: ProxyMode = 'forward';
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => this.accept(client));
  }

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    proxy.port = (proxy.server.address() as { port: number }).port;
    return proxy;
  }

  get mode(): ProxyMode {
    return this.currentMode;
  }

  get connections(): number {
    return this.pairs.size;
  }

  /** Rewrites a connection string so that it goes through the proxy. */
  url(target: string): string {
    const u = new URL(target);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  setMode(mode: ProxyMode): void {
    this.currentMode = mode;
    if (mode === 'refuse') this.dropAll();
    if (mode === 'blackhole') {
      // Stop reading on both sides: nothing more crosses, nothing is closed.
      for (const pair of this.pairs) {
        pair.client.unpipe();
        pair.upstream?.unpipe();
        pair.client.pause();
        pair.upstream?.pause();
      }
    }
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    client.on('error', () => undefined);
    if (this.currentMode === 'refuse') {
      client.destroy();
      return;
    }
    const pair: { client: Socket; upstream?: Socket } = { client };
    this.pairs.add(pair);
    client.once('close', () => {
      pair.upstream?.destroy();
      this.pairs.delete(pair);
    });
    if (this.currentMode === 'blackhole') {
      client.pause();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    upstream.once('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private dropAll(): void {
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.upstream?.destroy();
    }
    this.pairs.clear();
  }
}
