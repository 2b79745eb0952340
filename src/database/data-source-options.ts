import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { PoolWatch } from '../common/persistence/pool-watch';
import { resilientClient } from './resilient-client';
import { TypeOrmNestLogger } from './typeorm-logger';

export interface DatabaseSettings {
  url: string;
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

/**
 * The one description of how the service talks to PostgreSQL, shared by the app, the CLI and tests. The pool's
 * connections report to `watch` (the application's own; a fresh one for a data source nobody watches).
 */
export function dataSourceOptions(s: DatabaseSettings, watch = new PoolWatch()): DataSourceOptions {
  return {
    type: 'postgres',
    url: s.url,
    entities: ENTITIES,
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    // gen_random_uuid() is built into PostgreSQL 13+; the service installs no extension on connect.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    synchronize: false,
    migrationsRun: false,
    logging: ['error', 'warn', 'migration'],
    logger: new TypeOrmNestLogger(),
    // Every wait on the database is bounded, so a request fails (503) instead of hanging when it goes away:
    // connecting and waiting for a pooled connection (connectionTimeoutMillis), a statement on the server
    // (statement_timeout), an answer that never comes over a black-holed connection (query_timeout, after
    // which the resilient client ends the connection so the pool drops it), and idle dead peers (TCP keep-alive).
    extra: {
      Client: resilientClient(watch),
      max: s.poolSize,
      connectionTimeoutMillis: s.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      statement_timeout: s.statementTimeoutMs,
      query_timeout: s.statementTimeoutMs + 1000,
      idle_in_transaction_session_timeout: s.statementTimeoutMs * 2,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'ens-subname-service',
    },
  };
}
