import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { DataSource, EntityManager } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/migrate';
import { PGliteServer } from '../../src/database/pglite-server';

type Reply = { raw?: Uint8Array; inTransaction?: boolean; rows?: unknown[]; error?: string };

/**
 * The part of PGlite that PGliteServer uses, answered by a PGlite on a worker thread (Jest's sandbox refuses the
 * dynamic import() PGlite loads its WebAssembly with).
 */
class WorkerPGlite {
  private readonly worker = new Worker(join(__dirname, 'pglite-worker.js'));
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private next = 0;
  private inTransaction = false;

  constructor() {
    // Never what keeps a test process alive.
    this.worker.unref();
    this.worker.on('message', ({ id, ...reply }: Reply & { id: number }) => {
      const waiter = this.pending.get(id)!;
      this.pending.delete(id);
      if (reply.error === undefined) waiter.resolve(reply);
      else waiter.reject(new Error(reply.error));
    });
  }

  private send(message: object): Promise<Reply> {
    const id = this.next++;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  async execProtocolRaw(message: Uint8Array): Promise<Uint8Array> {
    const reply = await this.send({ raw: message });
    this.inTransaction = reply.inTransaction!;
    return reply.raw!;
  }

  isInTransaction(): boolean {
    return this.inTransaction;
  }

  async exec(sql: string): Promise<void> {
    await this.send({ sql });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

export interface MigratedDatabase {
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * An in-memory PGlite with every migration applied by the service's own runMigrations, reached through the
 * service's own path (TypeORM, pg, PGliteServer on a loopback port): for repository specs that run their SQL
 * rather than read its text. In process, nothing but Node. Two pooled connections; the server runs one
 * transaction at a time.
 */
export async function migratedDatabase(): Promise<MigratedDatabase> {
  const db = new WorkerPGlite();
  // Started before the first connection's clock runs (its WebAssembly takes seconds on a busy machine).
  await db.exec('SELECT 1');
  const password = randomBytes(12).toString('hex');
  const server = new PGliteServer(db as unknown as PGlite, { user: 'postgres', password });
  const port = await server.listen(0);
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const dataSource = await new DataSource({
    ...dataSourceOptions({ url, poolSize: 2, statementTimeoutMs: 60_000, connectTimeoutMs: 10_000 }),
    // A spec's output is its tests' (a failing statement still throws).
    logging: false,
    logger: 'simple-console',
  }).initialize();
  await runMigrations(dataSource, { log: () => undefined });
  return {
    dataSource,
    async close() {
      await dataSource.destroy();
      await server.close();
      await db.close();
    },
  };
}

/** What a repository spec reads and writes through; both answer once the suite's first beforeAll has run. */
export interface SpecDatabase {
  readonly dataSource: DataSource;
  readonly manager: EntityManager;
}

/**
 * Registers, in the enclosing describe, a migrated database opened before its tests and closed after them, and
 * `TRUNCATE <tables> CASCADE` before each test (ahead of the spec's own beforeEach, which runs after it).
 */
export function useMigratedDatabase(tables: string): SpecDatabase {
  let db: MigratedDatabase | undefined;
  beforeAll(async () => {
    db = await migratedDatabase();
  });
  afterAll(() => db?.close());
  beforeEach(() => db!.dataSource.manager.query(`TRUNCATE ${tables} CASCADE`));
  return {
    get dataSource() {
      return db!.dataSource;
    },
    get manager() {
      return db!.dataSource.manager;
    },
  };
}

/** An API key allowed under oak.eth, the row a key's quota points at. */
export async function insertApiKey(manager: EntityManager, id: string, keyHash: string): Promise<void> {
  await manager.query(
    `INSERT INTO api_keys (id, name, key_prefix, key_hash, parent_names) VALUES ($1, 'k', 'sns_k', $2, '{oak.eth}')`,
    [id, keyHash],
  );
}
