import { createTestDatabase, TestDatabase } from './test-database';

declare global {
  var __TEST_DATABASE__: TestDatabase | undefined;
}

export default async function globalSetup(): Promise<void> {
  const db = await createTestDatabase();
  globalThis.__TEST_DATABASE__ = db;
  process.env.TEST_DATABASE_URL = db.url;
  console.log(`\ne2e database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}`);
}
