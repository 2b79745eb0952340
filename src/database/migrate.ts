import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/** Arbitrary constant: every replica takes the same advisory lock before migrating. */
const MIGRATION_LOCK_KEY = 4_242_021;

/** Applies pending migrations under a PostgreSQL advisory lock, so concurrent replicas migrate once. */
export async function runMigrations(dataSource: DataSource, logger = new Logger('Migrations')): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const m of applied) logger.log(`applied ${m.name}`);
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
