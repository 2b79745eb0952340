import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSSENC_REQUEST = 80877104;
const TERMINATE = 0x58; // 'X'
const PASSWORD_MESSAGE = 0x70; // 'p': SASLInitialResponse and SASLResponse
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'
const SCRAM = 'SCRAM-SHA-256';
const SCRAM_ITERATIONS = 4096;
/** A connection has this long to authenticate before it is dropped. */
const AUTH_TIMEOUT_MS = 10_000;

export interface Credentials {
  user: string;
  password: string;
}

/** The server's side of SCRAM-SHA-256 (RFC 5802/7677), as PostgreSQL stores it for a role. */
interface ScramSecret {
  salt: Buffer;
  storedKey: Buffer;
  serverKey: Buffer;
}

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

function scramSecret(password: string): ScramSecret {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, SCRAM_ITERATIONS, 32, 'sha256');
  return { salt, storedKey: sha256(hmac(salted, 'Client Key')), serverKey: hmac(salted, 'Server Key') };
}

/** `a=1,b=2` → {a: '1', b: '2'} (SCRAM attributes; values may contain `=`). */
function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at)] = part.slice(at + 1);
  }
  return out;
}

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function authentication(code: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const body = Buffer.alloc(4);
  body.writeInt32BE(code, 0);
  return message('R', Buffer.concat([body, data]));
}

function fatal(sqlstate: string, text: string): Buffer {
  const fields = [`SFATAL`, `VFATAL`, `C${sqlstate}`, `M${text}`].map((f) => Buffer.from(`${f}\0`, 'utf8'));
  return message('E', Buffer.concat([...fields, Buffer.from([0])]));
}

/** Parameters of a StartupMessage (user, database, …). */
function startupParameters(packet: Buffer): Record<string, string> {
  const parts = packet.subarray(8).toString('utf8').split('\0');
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) out[parts[i]] = parts[i + 1];
  return out;
}

/** The mechanism and data of a SASLInitialResponse, or the data of a SASLResponse. */
function saslPayload(msg: Buffer, initial: boolean): { mechanism?: string; data: string } | null {
  const body = msg.subarray(5);
  if (!initial) return { data: body.toString('utf8') };
  const end = body.indexOf(0);
  if (end < 0 || body.length < end + 5) return null;
  const length = body.readInt32BE(end + 1);
  return {
    mechanism: body.subarray(0, end).toString('utf8'),
    data: length < 0 ? '' : body.subarray(end + 5, end + 5 + length).toString('utf8'),
  };
}

type AuthState =
  | { step: 'startup' }
  | { step: 'first'; startup: Buffer; user: string }
  | { step: 'final'; startup: Buffer; user: string; nonce: string; clientFirstBare: string; serverFirst: string }
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
  private readonly secret: ScramSecret;

  constructor(
    private readonly db: PGlite,
    private readonly credentials: Credentials,
  ) {
    this.secret = scramSecret(credentials.password);
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
      const mechanisms = Buffer.from(`${SCRAM}\0\0`, 'utf8');
      return { next: { step: 'first', startup: msg!, user }, reply: authentication(10, mechanisms) };
    }
    if (state.step === 'first') {
      const payload = msg && msg[0] === PASSWORD_MESSAGE ? saslPayload(msg, true) : null;
      // gs2 header "n,," (no channel binding) or "y,,"; then n=<ignored>,r=<client nonce>
      const match = payload && payload.mechanism === SCRAM ? /^[ny],,(n=[^,]*,r=([^,]+).*)$/.exec(payload.data) : null;
      if (!match) return refuse(state.user);
      const nonce = match[2] + randomBytes(18).toString('base64');
      const serverFirst = `r=${nonce},s=${this.secret.salt.toString('base64')},i=${SCRAM_ITERATIONS}`;
      return {
        next: {
          step: 'final',
          startup: state.startup,
          user: state.user,
          nonce,
          clientFirstBare: match[1],
          serverFirst,
        },
        reply: authentication(11, Buffer.from(serverFirst, 'utf8')),
      };
    }
    if (state.step === 'final') {
      const payload = msg && msg[0] === PASSWORD_MESSAGE ? saslPayload(msg, false) : null;
      const attrs = payload ? attributes(payload.data) : {};
      const withoutProof = payload?.data.replace(/,p=[^,]*$/, '') ?? '';
      if (!attrs.p || attrs.r !== state.nonce || !attrs.c) return refuse(state.user);
      const authMessage = `${state.clientFirstBare},${state.serverFirst},${withoutProof}`;
      const proof = Buffer.from(attrs.p, 'base64');
      const signature = hmac(this.secret.storedKey, authMessage);
      if (proof.length !== signature.length) return refuse(state.user);
      const clientKey = Buffer.from(proof.map((b, i) => b ^ signature[i]));
      if (!timingSafeEqual(sha256(clientKey), this.secret.storedKey)) return refuse(state.user);
      const serverSignature = hmac(this.secret.serverKey, authMessage).toString('base64');
      return { next: { step: 'done' }, reply: authentication(12, Buffer.from(`v=${serverSignature}`, 'utf8')) };
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
