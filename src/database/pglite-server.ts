import { randomBytes } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { authentication, endsIdle, fatal, saslPayload, startupParameters } from './pg-wire';
import { SCRAM_SHA_256, ScramChallenge, scramChallenge, scramFinal, ScramKeys, scramKeys } from './scram';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSSENC_REQUEST = 80877104;
const TERMINATE = 0x58; // 'X'
const PASSWORD_MESSAGE = 0x70; // 'p': SASLInitialResponse and SASLResponse
const SCRAM_ITERATIONS = 4096;
/** A connection has this long to authenticate before it is dropped. */
const AUTH_TIMEOUT_MS = 10_000;

export interface Credentials {
  user: string;
  password: string;
}

type AuthState =
  | { step: 'startup' }
  | { step: 'first'; startup: Buffer; user: string }
  | { step: 'final'; startup: Buffer; user: string; challenge: ScramChallenge }
  | { step: 'done' }
  | { step: 'refused' };

/**
 * Why this file exists instead of @electric-sql/pglite-socket: that server serialises single messages across
 * connections and pins a connection only inside a transaction, so the Parse/Bind/Execute/Sync of two pooled
 * connections interleave in PGlite's one session and clobber each other's unnamed statement (wrong rows or
 * bind errors; electric-sql/pglite issue 1046, pull request 977). We saw exactly that with two processes.
 *
 * Serves one PGlite database (a single PostgreSQL session) to many PostgreSQL-protocol connections, on a
 * loopback port, to clients that authenticate as the one configured user with its password (SCRAM-SHA-256,
 * the password never crosses the wire; anything else gets FATAL 28P01). A connection owns the session from
 * its first query message until PGlite answers ReadyForQuery with the idle status, so extended-protocol
 * sequences and transactions of different connections never interleave; other connections wait their turn.
 * A connection that leaves mid-transaction is rolled back.
 */
export class PGliteServer {
  private server?: Server;
  private owner: number | null = null;
  private waiters: (() => void)[] = [];
  private nextId = 1;
  private readonly sockets = new Set<Socket>();
  private readonly keys: ScramKeys;

  constructor(
    private readonly db: PGlite,
    private readonly credentials: Credentials,
  ) {
    this.keys = scramKeys(credentials.password, randomBytes(16), SCRAM_ITERATIONS);
  }

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

  /** One step of the SCRAM exchange; returns what to send, and whether to close the connection after it. */
  private authenticate(state: AuthState, msg: Buffer | null): { next: AuthState; reply: Buffer; close?: boolean } {
    const refuse = (user: string) => ({
      next: { step: 'refused' } as AuthState,
      reply: fatal('28P01', `password authentication failed for user "${user}"`),
      close: true,
    });
    if (state.step === 'startup') {
      const user = startupParameters(msg!).user ?? '';
      if (user !== this.credentials.user) return refuse(user);
      const mechanisms = Buffer.from(`${SCRAM_SHA_256}\0\0`, 'utf8');
      return { next: { step: 'first', startup: msg!, user }, reply: authentication(10, mechanisms) };
    }
    if (state.step === 'first') {
      const payload = msg && msg[0] === PASSWORD_MESSAGE ? saslPayload(msg, true) : null;
      const challenge =
        payload?.mechanism === SCRAM_SHA_256
          ? scramChallenge(this.keys, payload.data, randomBytes(18).toString('base64'))
          : null;
      if (!challenge) return refuse(state.user);
      return {
        next: { step: 'final', startup: state.startup, user: state.user, challenge },
        reply: authentication(11, Buffer.from(challenge.serverFirst, 'utf8')),
      };
    }
    if (state.step === 'final') {
      const payload = msg && msg[0] === PASSWORD_MESSAGE ? saslPayload(msg, false) : null;
      const serverFinal = payload ? scramFinal(this.keys, state.challenge, payload.data) : null;
      if (!serverFinal) return refuse(state.user);
      return { next: { step: 'done' }, reply: authentication(12, Buffer.from(serverFinal, 'utf8')) };
    }
    return refuse('');
  }

  private serve(socket: Socket): void {
    const id = this.nextId++;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    let started = false;
    let auth: AuthState = { step: 'startup' };
    let chain = Promise.resolve();
    const authTimer = setTimeout(() => socket.destroy(), AUTH_TIMEOUT_MS);
    authTimer.unref();

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

    /** Until authenticated, messages go to the SCRAM exchange; PGlite sees the startup packet only after it. */
    const step = (msg: Buffer): void => {
      const { next, reply, close } = this.authenticate(auth, msg);
      const startup = auth.step === 'final' ? auth.startup : undefined;
      auth = next;
      socket.write(reply);
      if (close) {
        socket.end();
        return;
      }
      if (startup && next.step === 'done') {
        clearTimeout(authTimer);
        chain = chain.then(() => handle(startup, true));
      }
    };

    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (length < 8 || length > 10_000) return void socket.destroy();
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          const packet = Buffer.from(buffer.subarray(0, length));
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
          step(packet);
          if (auth.step === 'refused') return;
          continue;
        }
        if (buffer.length < 5) return;
        const length = 1 + buffer.readInt32BE(1);
        if (length < 5) return void socket.destroy();
        if (buffer.length < length) return;
        const message = Buffer.from(buffer.subarray(0, length));
        buffer = buffer.subarray(length);
        if (auth.step === 'refused') return;
        if (auth.step !== 'done') step(message);
        else if (!socket.writableEnded) chain = chain.then(() => handle(message, false));
      }
    });

    const leave = () => {
      clearTimeout(authTimer);
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
