import { createServer, Server, Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSSENC_REQUEST = 80877104;
const TERMINATE = 0x58; // 'X'
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'

/**
 * Why this file exists instead of @electric-sql/pglite-socket: that server serialises single messages across
 * connections and pins a connection only inside a transaction, so the Parse/Bind/Execute/Sync of two pooled
 * connections interleave in PGlite's one session and clobber each other's unnamed statement (wrong rows or
 * bind errors; electric-sql/pglite issue 1046, pull request 977). We saw exactly that with two processes.
 *
 * Serves one PGlite database (a single PostgreSQL session) to many PostgreSQL-protocol connections.
 * A connection owns the session from its first message until PGlite answers ReadyForQuery with the
 * idle status, so extended-protocol sequences and transactions of different connections never
 * interleave; other connections wait their turn. A connection that leaves mid-transaction is rolled back.
 */
export class PGliteServer {
  private server?: Server;
  private owner: number | null = null;
  private waiters: (() => void)[] = [];
  private nextId = 1;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly db: PGlite) {}

  async listen(port = 0, host = '127.0.0.1'): Promise<number> {
    this.server = createServer((socket) => this.serve(socket));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
    return (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async acquire(id: number): Promise<void> {
    while (this.owner !== null && this.owner !== id) await new Promise<void>((r) => this.waiters.push(r));
    this.owner = id;
  }

  private release(id: number): void {
    if (this.owner !== id) return;
    this.owner = null;
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }

  private serve(socket: Socket): void {
    const id = this.nextId++;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    let started = false;
    let chain = Promise.resolve();

    const handle = async (message: Buffer, isStartup: boolean): Promise<void> => {
      if (!isStartup && message[0] === TERMINATE) {
        socket.end();
        return;
      }
      await this.acquire(id);
      let reply: Uint8Array;
      try {
        reply = await this.db.execProtocolRaw(new Uint8Array(message));
      } catch (e) {
        this.release(id);
        socket.destroy(e as Error);
        return;
      }
      if (endsIdle(reply)) this.release(id);
      if (!socket.destroyed) socket.write(reply);
    };

    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          const packet = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            socket.write('N');
            continue;
          }
          if (code === CANCEL_REQUEST) {
            socket.end();
            return;
          }
          started = true;
          chain = chain.then(() => handle(Buffer.from(packet), true));
          continue;
        }
        if (buffer.length < 5) return;
        const length = 1 + buffer.readInt32BE(1);
        if (buffer.length < length) return;
        const message = Buffer.from(buffer.subarray(0, length));
        buffer = buffer.subarray(length);
        chain = chain.then(() => handle(message, false));
      }
    });

    const leave = () => {
      this.sockets.delete(socket);
      chain = chain.then(async () => {
        if (this.owner !== id) return;
        // The connection left while owning the session: undo whatever it had open.
        if (this.db.isInTransaction()) await this.db.exec('ROLLBACK').catch(() => undefined);
        this.release(id);
      });
    };
    socket.on('close', leave);
    socket.on('error', () => socket.destroy());
  }
}

/** True when the last ReadyForQuery in a reply says the session is idle (not in a transaction). */
function endsIdle(reply: Uint8Array): boolean {
  let status: number | null = null;
  let offset = 0;
  const view = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  while (offset + 5 <= view.length) {
    const type = view[offset];
    const length = view.readInt32BE(offset + 1);
    if (type === READY_FOR_QUERY && length === 5) status = view[offset + 5];
    offset += 1 + length;
  }
  return status === IDLE;
}
