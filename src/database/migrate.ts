import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { renameRecordedMigrations } from './migration-renames';

/** Arbitrary constant: every replica takes the same advisory lock before migrating. */
const MIGRATION_LOCK_KEY = 4_242_021;

/**
 * Applies pending migrations under a PostgreSQL advisory lock, so concurrent replicas migrate once.
 * The lock is held on its own connection: the pool may have a single one (embedded database).
 */
export async function runMigrations(
  dataSource: DataSource,
  logger: Pick<Logger, 'log'> = new Logger('Migrations'),
): Promise<string[]> {
  const lock = new Client({ connectionString: (dataSource.options as PostgresConnectionOptions).url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const renamed = await renameRecordedMigrations(lock, dataSource.options.migrationsTableName ?? 'migrations');
    if (renamed > 0) logger.log(`renamed ${renamed} recorded migration(s) to their new timestamps`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const m of applied) logger.log(`applied ${m.name}`);
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
}
