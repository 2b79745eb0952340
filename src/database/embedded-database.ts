import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly) and serves it on a loopback port, so the service
 * reaches it through the same TypeORM/pg path as a real server. `dataDir` undefined keeps it in memory.
 */
export async function startEmbeddedDatabase(dataDir?: string, port = 0): Promise<EmbeddedDatabase> {
  let path: string | undefined;
  if (dataDir) {
    path = resolve(join(dataDir, 'pgdata'));
    mkdirSync(path, { recursive: true });
  }
  const db = await PGlite.create({ dataDir: path, extensions: { pg_trgm } });
  // The server multiplexes connections and keeps a transaction on the connection that opened it.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 16 });
  await server.start();
  const conn = server.getServerConn();
  return {
    url: `postgres://postgres:postgres@${conn}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
