import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { check as isLocked, lock } from 'proper-lockfile';
import { Client } from 'pg';
import { PGliteServer } from './pglite-server';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** What the serving process writes beside the data (mode 0600): how its own user's tools reach it. */
interface OwnerRecord {
  pid: number;
  port: number;
  user: string;
  password: string;
}

const OWNER_FILE = 'embedded-server.json';
const USER = 'postgres';
/**
 * The data folder's lock (`pgdata.lock`, a directory made atomically) is refreshed every LOCK_UPDATE_MS; one
 * not refreshed for LOCK_STALE_MS belongs to a process that died and is taken over. No pid is involved, so the
 * lock holds the same for PID 1 in a container.
 */
const LOCK_STALE_MS = 20_000;
const LOCK_UPDATE_MS = 2_000;
/** How long tools wait for a service that holds the folder to publish its port (it may be starting). */
export const TOOL_WAIT_MS = 15_000;

export class EmbeddedDatabaseLockedError extends Error {}

function urlFor(port: number, password: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** The folder and files only the service's own user may read: 0700 folders, 0600 files. */
function privateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  try {
    chmodSync(path, 0o700);
  } catch {
    // a folder owned by someone else (a mounted volume): its owner decides
  }
}

function writeOwnerRecord(dataDir: string, record: OwnerRecord): void {
  const file = join(dataDir, OWNER_FILE);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(record), { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, file);
}

function readOwnerRecord(dataDir: string): OwnerRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(join(dataDir, OWNER_FILE), 'utf8')) as OwnerRecord;
    return typeof record.port === 'number' && typeof record.password === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}

async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The URL of the process that holds this data folder, when one does (its lock is fresh) and it answers with
 * the credentials it recorded. Waits up to `waitMs` for one that is still starting.
 */
export async function findRunningEmbeddedDatabase(dataDir: string, waitMs = 0): Promise<string | undefined> {
  const root = resolve(dataDir);
  const data = join(root, 'pgdata');
  const deadline = Date.now() + waitMs;
  for (;;) {
    const held = await isLocked(data, { stale: LOCK_STALE_MS, realpath: false }).catch(() => false);
    if (!held) return undefined;
    const owner = readOwnerRecord(root);
    if (owner) {
      const url = urlFor(owner.port, owner.password);
      if (await answers(url)) return url;
    }
    if (Date.now() >= deadline) {
      throw new EmbeddedDatabaseLockedError(
        `another process holds the embedded database in ${dataDir} (${data}.lock) but does not answer; ` +
          'wait for it to start or stop, or set DATABASE_URL',
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface EmbeddedOptions {
  /** Called if the folder's lock is lost (its refresh failed for LOCK_STALE_MS): stop writing at once. */
  onLockLost?: (error: Error) => void;
}

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly) and serves it on a loopback port that accepts only the
 * user `postgres` with a random password made for this run, so the service reaches it through the same
 * TypeORM/pg path as a real server. `dataDir` undefined keeps it in memory; otherwise the data lives in
 * `<dataDir>/pgdata`, which this process locks for as long as it runs, and the port and password are written
 * to `<dataDir>/embedded-server.json`, readable by this OS user only.
 */
export async function startEmbeddedDatabase(
  dataDir?: string,
  port = 0,
  options: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  const password = randomBytes(24).toString('base64url');
  let path: string | undefined;
  let root: string | undefined;
  let unlock: (() => Promise<void>) | undefined;
  if (dataDir) {
    root = resolve(dataDir);
    privateFolder(root);
    path = join(root, 'pgdata');
    privateFolder(path);
    try {
      unlock = await lock(path, {
        stale: LOCK_STALE_MS,
        update: LOCK_UPDATE_MS,
        realpath: false,
        onCompromised: (e) => (options.onLockLost ?? defaultLockLost)(e),
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
      throw new EmbeddedDatabaseLockedError(
        `another process holds the embedded database in ${dataDir} (${path}.lock): one process per data folder. ` +
          `Stop it, or use another DATA_DIR, or set DATABASE_URL (a lock left by a process that died frees itself ` +
          `within ${LOCK_STALE_MS / 1000} s)`,
      );
    }
  }
  try {
    const db = await PGlite.create({ dataDir: path, extensions: { pg_trgm } });
    const server = new PGliteServer(db, { user: USER, password });
    const listening = await server.listen(port);
    if (root) writeOwnerRecord(root, { pid: process.pid, port: listening, user: USER, password });
    return {
      url: urlFor(listening, password),
      async stop() {
        await server.close();
        await db.close();
        if (root) rmSync(join(root, OWNER_FILE), { force: true });
        await unlock?.().catch(() => undefined);
      },
    };
  } catch (e) {
    await unlock?.().catch(() => undefined);
    throw e;
  }
}

function defaultLockLost(e: Error): void {
  // Another process may now open the folder: two writers would corrupt it, so this one stops.
  console.error(`embedded database: the data folder's lock was lost (${e.message}); exiting`);
  process.exit(70);
}

/** For tools (CLI, migrations): the running service's embedded database when there is one, else a new one. */
export async function openEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const running = await findRunningEmbeddedDatabase(dataDir, TOOL_WAIT_MS);
  if (running) return { url: running, stop: async () => undefined };
  return startEmbeddedDatabase(dataDir);
}
