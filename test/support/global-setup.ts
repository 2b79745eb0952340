import type { Config } from '@jest/types';
import { createTestDatabase, TestDatabase } from './test-database';

declare global {
  var __TEST_DATABASES__: TestDatabase[] | undefined;
}

/**
 * One database per jest worker (suites reset their database when they start, so two suites running at once
 * must never share one); each worker's suites find theirs through worker-database.ts.
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  const workers = globalConfig.maxWorkers > 1 && !globalConfig.runInBand ? globalConfig.maxWorkers : 1;
  const databases = await Promise.all(Array.from({ length: workers }, () => createTestDatabase()));
  globalThis.__TEST_DATABASES__ = databases;
  databases.forEach((db, i) => (process.env[`TEST_DATABASE_URL_${i + 1}`] = db.url));
  process.env.TEST_DATABASE_URL = databases[0].url;
  console.log(
    (process.env.DATABASE_URL
      ? '\ne2e database: PostgreSQL (DATABASE_URL)'
      : '\ne2e database: embedded PGlite (tests titled [PostgreSQL only: …] are skipped; set DATABASE_URL to run them)') +
      (workers > 1 ? `, one per worker (${workers})` : ''),
  );
}
