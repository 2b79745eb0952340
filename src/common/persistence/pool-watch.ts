/** pg-pool's error when a request waited connectionTimeoutMillis for a pooled connection and got none. */
export const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

/** What a pg pool offers that the watch needs: its connect, in both of pg's forms. */
interface WatchedPool {
  connect: (...args: unknown[]) => unknown;
}

/**
 * Tells a full pool from a database gone away. A request that timed out waiting for a pooled connection met a
 * database that stopped answering (SERVICE_UNAVAILABLE) only when the database owed an answer (a query or a
 * connection attempt was outstanding) and gave none during the wait. Otherwise it met a busy service
 * (`databaseBusy` is set on its error, so it is answered 503 SERVICE_BUSY): answers kept coming, or nothing was
 * asked of the database at all (the connections are held by work that is not waiting on it). Readiness asks the
 * same question of its own probe. The pool's connections tell it of each request (`asked`), its end (`settled`)
 * and each answer (`answered`); a connection handed back after a timeout is no answer. One watch per pool: the
 * database module makes the application's (a provider), so two applications in one process count apart.
 */
export class PoolWatch {
  private answers = 0;
  private lastAnswerAt = 0;
  private outstanding = 0;

  /** A query or a connection attempt was sent to the database; `settled` follows when it ends either way. */
  asked(): void {
    this.outstanding++;
  }

  /** A query or a connection attempt ended (answered, failed or timed out). */
  settled(): void {
    this.outstanding = Math.max(0, this.outstanding - 1);
  }

  /** A query was answered by the database. */
  answered(): void {
    this.answers++;
    this.lastAnswerAt = Date.now();
  }

  /** Whether the database answered a query at or after `at` (a Date.now() value). */
  answeredSince(at: number): boolean {
    return this.lastAnswerAt > 0 && this.lastAnswerAt >= at;
  }

  /** Whether the database owes an answer and has given none at or after `at`: it has stopped answering. */
  silentSince(at: number): boolean {
    return this.outstanding > 0 && !this.answeredSince(at);
  }

  watch(pool: WatchedPool): void {
    const connect = pool.connect.bind(pool);
    pool.connect = (...args: unknown[]) => {
      const before = this.answers;
      const mark = (err: unknown) => {
        // Busy unless the database owed an answer when the wait ended and gave none during it: a pool held with
        // nothing asked of the database is full, not unreachable, however slowly a loaded machine would answer.
        if (err instanceof Error && err.message === POOL_WAIT_TIMEOUT && (this.answers > before || !this.outstanding)) {
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
