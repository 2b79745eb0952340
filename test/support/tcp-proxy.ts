import { createServer, Server, Socket, connect } from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

interface Pair {
  client: Socket;
  upstream?: Socket;
  /** Black-holed: the client side stays open and hears nothing, whatever happens upstream. */
  silent?: boolean;
}

/**
 * A TCP proxy on a loopback port that a test controls, to put a fault between the service and a server:
 * - `forward`: pipes bytes both ways;
 * - `refuse`: closes every connection, open or new (the server went away, or restarted);
 * - `blackhole`: keeps every connection open, accepts new ones, and forwards nothing in either direction
 *   (a peer that stopped answering: a dead host, a partition), which only timeouts can detect.
 * Going back to `forward` serves new connections. Connections black-holed before lose their server side (as
 * when the database host restarted: its sessions and their transactions are gone) but stay open and silent
 * on the client's side, as connections to a peer that died without a word do: the client must notice them.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly pairs = new Set<Pair>();
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
    if (mode === 'forward' && this.currentMode === 'blackhole') {
      for (const pair of this.pairs) pair.upstream?.destroy();
    }
    this.currentMode = mode;
    if (mode === 'refuse') this.dropAll();
    if (mode === 'blackhole') {
      // Stop reading on both sides: nothing more crosses, nothing is closed.
      for (const pair of this.pairs) {
        pair.silent = true;
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
    const pair: Pair = { client };
    this.pairs.add(pair);
    client.once('close', () => {
      pair.upstream?.destroy();
      this.pairs.delete(pair);
    });
    if (this.currentMode === 'blackhole') {
      pair.silent = true;
      client.pause();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    pair.upstream = upstream;
    upstream.on('error', () => undefined);
    upstream.once('close', () => {
      if (!pair.silent) client.destroy();
    });
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
