import type { Config } from '@jest/types';
import { Logger } from '@nestjs/common';
import { logRunDir, SuiteLogger } from './suite-log';
import { createTestDatabase, TestDatabase } from './test-database';
import { startTestRedis, TestRedis } from './test-redis';

declare global {
  var __TEST_DATABASES__: TestDatabase[] | undefined;
  var __TEST_REDIS__: TestRedis | undefined;
}

/**
 * One database per jest worker (suites reset their database when they start, so two suites running at once must
 * never share one; worker-database.ts gives each suite its worker's), and one Redis for the run: the Redis specs
 * keep apart by key prefix.
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  logRunDir();
  // The migrations' lines go to the run's global.log, not between the tests' results.
  Logger.overrideLogger(new SuiteLogger());
  const workers = globalConfig.maxWorkers > 1 && !globalConfig.runInBand ? globalConfig.maxWorkers : 1;
  const redis = await startTestRedis();
  globalThis.__TEST_REDIS__ = redis;
  try {
    globalThis.__TEST_DATABASES__ = await Promise.all(Array.from({ length: workers }, () => createTestDatabase()));
  } catch (e) {
    await redis.stop();
    throw e;
  }
  globalThis.__TEST_DATABASES__.forEach((db, i) => (process.env[`TEST_DATABASE_URL_${i + 1}`] = db.url));
  process.env.TEST_DATABASE_URL = globalThis.__TEST_DATABASES__[0].url;
  // The Redis specs take TEST_REDIS_URL; every other service process a spec starts inherits this environment, and
  // stays off Redis as it would without REDIS_URL.
  if (redis.url) process.env.TEST_REDIS_URL = redis.url;
  delete process.env.REDIS_URL;
  console.log(
    (process.env.DATABASE_URL
      ? '\ne2e database: PostgreSQL (DATABASE_URL)'
      : '\ne2e database: embedded PGlite (tests titled [PostgreSQL only: …] are skipped; set DATABASE_URL to run them)') +
      (workers > 1 ? `, one per worker (${workers})` : ''),
  );
  console.log(
    redis.url
      ? `e2e Redis: ${redis.origin}`
      : 'e2e Redis: none (no redis-server on PATH, REDIS_URL unset; tests titled [Redis: …] are skipped)',
  );
}
