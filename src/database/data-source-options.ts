import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';

export interface DatabaseSettings {
  url: string;
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

/** The one description of how the service talks to PostgreSQL, shared by the app, the CLI and tests. */
export function dataSourceOptions(s: DatabaseSettings): DataSourceOptions {
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
    logging: ['error'],
    extra: {
      max: s.poolSize,
      connectionTimeoutMillis: s.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      statement_timeout: s.statementTimeoutMs,
      query_timeout: s.statementTimeoutMs + 1000,
      idle_in_transaction_session_timeout: s.statementTimeoutMs * 2,
      application_name: 'ens-subname-service',
    },
  };
}
