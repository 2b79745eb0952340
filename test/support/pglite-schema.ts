import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { readMigrationFiles } from '../../src/database/migration-order';

/** An in-process PGlite database on a worker thread: no server, no port, nothing but Node. */
export class WorkerPGlite {
  private readonly worker = new Worker(join(__dirname, 'pglite-worker.js'));
  private readonly pending = new Map<number, { resolve: (rows: unknown[]) => void; reject: (e: Error) => void }>();
  private next = 0;

  constructor() {
    // Never what keeps a test process alive.
    this.worker.unref();
    this.worker.on('message', ({ id, rows, error }: { id: number; rows?: unknown[]; error?: string }) => {
      const waiter = this.pending.get(id)!;
      this.pending.delete(id);
      if (error === undefined) waiter.resolve(rows!);
      else waiter.reject(new Error(error));
    });
  }

  /** One statement with parameters, or (without) a script of several; the rows of the result. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> {
    const id = this.next++;
    return new Promise<T[]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      this.worker.postMessage({ id, sql, params });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * A fresh PGlite with every migration applied in order: the schema the service runs on, for repository specs
 * that run their SQL rather than read its text.
 */
export async function migratedPGlite(): Promise<WorkerPGlite> {
  const db = new WorkerPGlite();
  // What the migrations use of a query runner: query, with or without parameters.
  const runner = { query: (sql: string, params?: unknown[]) => db.query(sql, params) } as unknown as QueryRunner;
  // TypeORM's own table, which one migration (ExportIndex) tidies.
  await db.query(
    `CREATE TABLE "migrations" ("id" SERIAL PRIMARY KEY, "timestamp" bigint NOT NULL, "name" varchar NOT NULL)`,
  );
  for (const { file } of readMigrationFiles()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the folder is the list, as TypeORM's glob
    const exported = require(`../../src/database/migrations/${file}`) as Record<string, new () => MigrationInterface>;
    for (const Migration of Object.values(exported)) await new Migration().up(runner);
  }
  return db;
}
