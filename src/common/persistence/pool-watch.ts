/** pg-pool's error when a request waited connectionTimeoutMillis for a pooled connection and got none. */
export const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

/** What a pg pool offers that the watch needs: its events, and its connect in both of pg's forms. */
interface WatchedPool {
  on(event: 'release', listener: (err: unknown) => void): unknown;
  connect: (...args: unknown[]) => unknown;
}

/**
 * Tells a full pool from a database gone away. A pool that keeps handing connections back is serving queries: a
 * request that timed out waiting behind them met a busy service (`databaseBusy` is set on its error, so it is
 * answered 503 SERVICE_BUSY), while one during whose wait no connection came back met a database that stopped
 * answering (SERVICE_UNAVAILABLE). Readiness asks the same question of its own probe.
 */
export class PoolWatch {
  private released = 0;
  private lastReleaseAt = 0;

  /** Whether a connection came back to the pool in the last `ms` milliseconds (queries are completing). */
  answeredWithin(ms: number): boolean {
    return this.lastReleaseAt > 0 && Date.now() - this.lastReleaseAt <= ms;
  }

  watch(pool: WatchedPool): void {
    pool.on('release', (err) => {
      if (err) return;
      this.released++;
      this.lastReleaseAt = Date.now();
    });
    const connect = pool.connect.bind(pool);
    pool.connect = (...args: unknown[]) => {
      const before = this.released;
      const mark = (err: unknown) => {
        if (err instanceof Error && err.message === POOL_WAIT_TIMEOUT && this.released > before) {
          (err as Error & { databaseBusy?: boolean }).databaseBusy = true;
        }
        return err;
      };
      const callback = args[0];
      if (typeof callback === 'function') {
        return connect((err: unknown, ...rest: unknown[]) =>
          (callback as (...a: unknown[]) => unknown)(err ? mark(err) : err, ...rest),
        );
      }
      return (connect() as Promise<unknown>).catch((e: unknown) => {
        throw mark(e);
      });
    };
  }
}

/** The process's one pool watch (one data source per process). */
export const poolWatch = new PoolWatch();
