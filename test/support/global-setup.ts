import { createTestDatabase, TestDatabase } from './test-database';
import { startTestRedis, TestRedis } from './test-redis';

declare global {
  var __TEST_DATABASE__: TestDatabase | undefined;
  var __TEST_REDIS__: TestRedis | undefined;
}

export default async function globalSetup(): Promise<void> {
  const redis = await startTestRedis();
  globalThis.__TEST_REDIS__ = redis;
  try {
    globalThis.__TEST_DATABASE__ = await createTestDatabase();
  } catch (e) {
    await redis.stop();
    throw e;
  }
  process.env.TEST_DATABASE_URL = globalThis.__TEST_DATABASE__.url;
  // The Redis specs take TEST_REDIS_URL; every other service process a spec starts inherits this environment, and
  // stays off Redis as it would without REDIS_URL.
  if (redis.url) process.env.TEST_REDIS_URL = redis.url;
  delete process.env.REDIS_URL;
  console.log(
    process.env.DATABASE_URL
      ? '\ne2e database: PostgreSQL (DATABASE_URL)'
      : '\ne2e database: embedded PGlite (tests titled [PostgreSQL only: …] are skipped; set DATABASE_URL to run them)',
  );
  console.log(
    redis.url
      ? `e2e Redis: ${redis.origin}`
      : 'e2e Redis: none (no redis-server on PATH, REDIS_URL unset; tests titled [Redis: …] are skipped)',
  );
}
