/** pg-pool's error when a request waited connectionTimeoutMillis for a pooled connection and got none. */
export const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

/** What a pg pool offers that the watch needs: its connect, in both of pg's forms. */
interface WatchedPool {
  connect: (...args: unknown[]) => unknown;
}

/**
 * Tells a full pool from a database gone away. While the database answers queries, a request that timed out
 * waiting for a pooled connection met a busy service (`databaseBusy` is set on its error, so it is answered 503
 * SERVICE_BUSY); one during whose wait no query was answered met a database that stopped answering
 * (SERVICE_UNAVAILABLE). Readiness asks the same question of its own probe. The pool's connections tell it of
 * each answer (`answered`); a connection handed back after a timeout is no answer.
 */
export class PoolWatch {
  private answers = 0;
  private lastAnswerAt = 0;

  /** A query was answered by the database. */
  answered(): void {
    this.answers++;
    this.lastAnswerAt = Date.now();
  }

  /** Whether the database answered a query at or after `at` (a Date.now() value). */
  answeredSince(at: number): boolean {
    return this.lastAnswerAt > 0 && this.lastAnswerAt >= at;
  }

  watch(pool: WatchedPool): void {
    const connect = pool.connect.bind(pool);
    pool.connect = (...args: unknown[]) => {
      const before = this.answers;
      const mark = (err: unknown) => {
        if (err instanceof Error && err.message === POOL_WAIT_TIMEOUT && this.answers > before) {
          (err as Error & { databaseBusy?: boolean }).databaseBusy = true;
        }
        return err;
      };
      // Decided after the event loop's next poll phase: under load the wait's timer can fire in the same turn as
      // an answer that has arrived but is not read yet, and that answer still counts.
      const afterPoll = (err: unknown, then: (marked: unknown) => void) =>
        err instanceof Error && err.message === POOL_WAIT_TIMEOUT ? setImmediate(() => then(mark(err))) : then(err);
      const callback = args[0];
      if (typeof callback === 'function') {
        return connect((err: unknown, ...rest: unknown[]) =>
          err
            ? afterPoll(err, (marked) => (callback as (...a: unknown[]) => unknown)(marked, ...rest))
            : (callback as (...a: unknown[]) => unknown)(err, ...rest),
        );
      }
      return (connect() as Promise<unknown>).catch((e: unknown) => new Promise((_, reject) => afterPoll(e, reject)));
    };
  }
}

/** The process's one pool watch (one data source per process). */
export const poolWatch = new PoolWatch();
