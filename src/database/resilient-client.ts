import { Client, ClientConfig } from 'pg';
import { PoolWatch } from '../common/persistence/pool-watch';

/**
 * pg's client, except that a query that timed out client-side (query_timeout: the server stopped answering)
 * ends its connection. Stock pg leaves such a client waiting for an answer that may never come, the pool
 * hands it out again, and every later query on it times out too; ended, it is dropped by the pool instead.
 * Upstream: brianc/node-postgres issue 3399 (open; the fix in pull request 3729 was not merged). Our fault
 * test (test/fault.e2e-spec.ts, a black-holed database) fails without this class. Each query and connection
 * attempt, and each answer, is also told to the pool's watch, which tells a busy pool from a silent database:
 * pg makes a pool's clients from the class alone, so each pool gets its own class, bound to its own watch.
 */
export function resilientClient(watch: PoolWatch): typeof Client {
  return class ResilientClient extends Client {
    constructor(config?: string | ClientConfig) {
      super(config);
      const query = Client.prototype.query.bind(this) as (...args: unknown[]) => unknown;
      const connect = Client.prototype.connect.bind(this) as (...args: unknown[]) => unknown;
      const discardOn = (e: unknown) => {
        if (e instanceof Error && e.message === 'Query read timeout') this.end().catch(() => undefined);
      };
      (this as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const last = args.length - 1;
        const callback = args[last];
        if (typeof callback === 'function') {
          watch.asked();
          args[last] = (err: unknown, ...rest: unknown[]) => {
            watch.settled();
            if (err) discardOn(err);
            else watch.answered();
            return (callback as (...a: unknown[]) => unknown)(err, ...rest);
          };
          try {
            return query(...args);
          } catch (e) {
            watch.settled();
            throw e;
          }
        }
        const result = query(...args);
        // A query without a callback returns a promise, or a submittable (a cursor, a stream) that is not watched.
        if (result instanceof Promise) {
          watch.asked();
          return result.then(
            (value: unknown) => {
              watch.settled();
              watch.answered();
              return value;
            },
            (e: unknown) => {
              watch.settled();
              discardOn(e);
              throw e;
            },
          );
        }
        return result;
      };
      // A connection attempt is asked of the database too: a pool full of attempts to a silent one is unavailable.
      (this as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
        watch.asked();
        const callback = args[0];
        if (typeof callback === 'function') {
          return connect((err: unknown, ...rest: unknown[]) => {
            watch.settled();
            if (!err) watch.answered();
            return (callback as (...a: unknown[]) => unknown)(err, ...rest);
          });
        }
        return (connect() as Promise<unknown>).then(
          (value: unknown) => {
            watch.settled();
            watch.answered();
            return value;
          },
          (e: unknown) => {
            watch.settled();
            throw e;
          },
        );
      };
    }
  };
}
