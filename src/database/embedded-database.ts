import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGliteServer } from './pglite-server';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface OwnerRecord {
  pid: number;
  port: number;
}

const OWNER_FILE = 'embedded-server.json';

function urlFor(port: number): string {
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function answers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
    socket.once('timeout', () => (socket.destroy(), done(false)));
  });
}

/** The URL of a live process that already serves this data folder, if any (PGlite has one owner). */
export async function findRunningEmbeddedDatabase(dataDir: string): Promise<string | undefined> {
  const file = join(resolve(dataDir), OWNER_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as OwnerRecord;
    if (owner.pid !== process.pid && isAlive(owner.pid) && (await answers(owner.port))) return urlFor(owner.port);
  } catch {
    // a torn or stale record: treat the folder as free
  }
  return undefined;
}

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly) and serves it on a loopback port, so the service
 * reaches it through the same TypeORM/pg path as a real server. `dataDir` undefined keeps it in memory;
 * otherwise the data lives in `<dataDir>/pgdata` and the serving process is recorded beside it.
 */
export async function startEmbeddedDatabase(dataDir?: string, port = 0): Promise<EmbeddedDatabase> {
  let path: string | undefined;
  let ownerFile: string | undefined;
  if (dataDir) {
    const running = await findRunningEmbeddedDatabase(dataDir);
    if (running) {
      throw new Error(
        `another process already serves the embedded database in ${dataDir} (${running}); stop it or set DATABASE_URL`,
      );
    }
    path = resolve(join(dataDir, 'pgdata'));
    mkdirSync(path, { recursive: true });
    ownerFile = join(resolve(dataDir), OWNER_FILE);
  }
  const db = await PGlite.create({ dataDir: path, extensions: { pg_trgm } });
  const server = new PGliteServer(db);
  const listening = await server.listen(port);
  if (ownerFile) writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, port: listening } satisfies OwnerRecord));
  return {
    url: urlFor(listening),
    async stop() {
      await server.close();
      await db.close();
      if (ownerFile) rmSync(ownerFile, { force: true });
    },
  };
}

/** For tools (CLI, migrations): the running service's embedded database when there is one, else a new one. */
export async function openEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const running = await findRunningEmbeddedDatabase(dataDir);
  if (running) return { url: running, stop: async () => undefined };
  return startEmbeddedDatabase(dataDir);
}
