import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGliteServer } from './pglite-server';

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
  const server = new PGliteServer(db);
  const listening = await server.listen(port);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${listening}/postgres`,
    async stop() {
      await server.close();
      await db.close();
    },
  };
}
