import { TcpProxy } from './tcp-proxy';

/** The run's Redis (globalSetup: REDIS_URL, or the machine's redis-server it started), or undefined without one. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/**
 * `it` for a test that needs Redis: with the run's Redis it runs; without one (no redis-server on the machine, no
 * REDIS_URL) it is reported as skipped with that reason in its title, never silently. CI installs redis-server.
 */
export function itOnRedis(title: string, fn: jest.ProvidesCallback, timeout?: number): void {
  if (TEST_REDIS_URL) it(title, fn, timeout);
  else it.skip(`${title} [Redis: runs in CI; install redis-server or set REDIS_URL to run it here]`, fn, timeout);
}

/** A proxy in front of the Redis at `url` (a redis:// URL through it: `proxy.url(url)`). */
export function proxyToRedis(url: string): Promise<TcpProxy> {
  const u = new URL(url);
  return TcpProxy.start(u.hostname, Number(u.port || 6379));
}
