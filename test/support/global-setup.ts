import { Logger } from '@nestjs/common';
import { logRunDir, SuiteLogger } from './suite-log';
import { createTestDatabase, TestDatabase } from './test-database';

declare global {
  var __TEST_DATABASE__: TestDatabase | undefined;
}

export default async function globalSetup(): Promise<void> {
  logRunDir();
  // The migrations' lines go to the run's global.log, not between the tests' results.
  Logger.overrideLogger(new SuiteLogger());
  const db = await createTestDatabase();
  globalThis.__TEST_DATABASE__ = db;
  process.env.TEST_DATABASE_URL = db.url;
  console.log(
    process.env.DATABASE_URL
      ? '\ne2e database: PostgreSQL (DATABASE_URL)'
      : '\ne2e database: embedded PGlite (tests titled [PostgreSQL only: …] are skipped; set DATABASE_URL to run them)',
  );
}
