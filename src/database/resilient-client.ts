import { Client, ClientConfig } from 'pg';
import { poolWatch } from '../common/persistence/pool-watch';

/**
 * pg's client, except that a query that timed out client-side (query_timeout: the server stopped answering)
 * ends its connection. Stock pg leaves such a client waiting for an answer that may never come, the pool
 * hands it out again, and every later query on it times out too; ended, it is dropped by the pool instead.
 * Upstream: brianc/node-postgres issue 3399 (open; the fix in pull request 3729 was not merged). Our fault
 * test (test/fault.e2e-spec.ts, a black-holed database) fails without this class. Each answer is also told to
 * the pool watch, which tells a busy pool from a silent database.
 */
export class ResilientClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    const query = Client.prototype.query.bind(this) as (...args: unknown[]) => unknown;
    const discardOn = (e: unknown) => {
      if (e instanceof Error && e.message === 'Query read timeout') this.end().catch(() => undefined);
    };
    (this as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (err: unknown, ...rest: unknown[]) => {
          if (err) discardOn(err);
          else poolWatch.answered();
          return (callback as (...a: unknown[]) => unknown)(err, ...rest);
        };
        return query(...args);
      }
      const result = query(...args);
      if (result instanceof Promise) {
        return result.then(
          (value: unknown) => {
            poolWatch.answered();
            return value;
          },
          (e: unknown) => {
            discardOn(e);
            throw e;
          },
        );
      }
      return result;
    };
  }
}
